import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { contentTypeOf } from './content-types';
import {
  checkKey,
  keyBelow,
  type MediaStore,
  type StoredEntry,
  type StoredInfo,
} from './media-store';

/** Where the objects are: one bucket of an S3-compatible service (MEDIA_STORE=s3). */
export interface S3StoreConfig {
  bucket: string;
  /** The service's URL (MinIO, R2, OSS, COS…); null: AWS S3 of `region`. */
  endpoint: string | null;
  region: string;
  /** Null: the SDK's own chain (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key` (MinIO and most self-hosted). */
  forcePathStyle: boolean;
  /** Prepended to every key, e.g. `kol/` to share a bucket; '' for none. */
  prefix: string;
}

export function s3Client(config: S3StoreConfig): S3Client {
  // The SDK warns on Node 20 that its releases after January 2027 will need Node 22. The version
  // is pinned (pnpm-workspace.yaml) and supports Node 20, the product's runtime: the warning
  // would only reach every operator's log. Raising the pin means raising Node first.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
    forcePathStyle: config.forcePathStyle,
    // Checksums only where an operation requires one: the SDK's default (a CRC trailer in
    // aws-chunked bodies) is refused or stored verbatim by many S3-compatible services.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

const notFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 ||
    error.name === 'NoSuchKey' ||
    error.name === 'NotFound');

/**
 * A failure worth another try: the service broke (5xx) or the connection did. The SDK retries
 * those itself, except for a streamed body it cannot read twice (putFile's): that put is tried
 * again here with a fresh stream.
 */
const transient = (error: unknown) =>
  !(error instanceof S3ServiceException) || (error.$metadata.httpStatusCode ?? 500) >= 500;

/** Tries of one streamed put (the SDK's default attempts for everything else). */
const PUT_FILE_ATTEMPTS = 3;

/** The store as the objects below `<prefix><area>/` of one bucket. */
export class S3Store implements MediaStore {
  readonly description: string;
  private readonly base: string;

  /**
   * @param cacheDir where `cached` keeps the copies of keys this process reads (the area's
   *   folder under AppConfig.storeCacheDir, DATA_DIR/cache/copies), swept of unused ones.
   */
  constructor(
    private readonly client: S3Client,
    private readonly config: S3StoreConfig,
    area: string,
    private readonly cacheDir: string,
  ) {
    this.base = `${config.prefix}${area}/`;
    this.description = `s3://${config.bucket}/${this.base}`;
  }

  localPath(): null {
    return null;
  }

  keyOfFile(file: string): string | null {
    return keyBelow(this.cacheDir, file);
  }

  async open(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }));
    } catch (error) {
      const status = (error as S3ServiceException).$metadata?.httpStatusCode;
      const why = status === 404 ? 'does not exist' : status === 403 ? 'is not ours to use' : '';
      throw new Error(
        `the media store's bucket ${this.config.bucket} at ${this.config.endpoint ?? `AWS ${this.config.region}`} ${why || `did not answer: ${(error as Error).message}`}`,
        { cause: error },
      );
    }
    await mkdir(this.cacheDir, { recursive: true });
  }

  async cached(key: string): Promise<string | null> {
    const file = path.join(this.cacheDir, ...checkKey(key).split('/'));
    const [local, stored] = await Promise.all([stat(file).catch(() => null), this.stat(key)]);
    if (!stored) return null;
    if (local?.isFile() && local.size === stored.size) {
      // Used again: the sweep of unused copies (cache-sweep.ts) keeps it a while longer.
      const now = new Date();
      await utimes(file, now, now).catch(() => {});
      return file;
    }
    return (await this.download(key, file)) ? file : null;
  }

  private object(key: string) {
    return { Bucket: this.config.bucket, Key: this.base + checkKey(key) };
  }

  async stat(key: string): Promise<StoredInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand(this.object(key)));
      return { size: head.ContentLength ?? 0, modified: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable | null> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          ...this.object(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return answer.Body instanceof Readable ? answer.Body : null;
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async putFile(key: string, file: string, contentType = contentTypeOf(file)): Promise<void> {
    const { size } = await stat(file);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.client.send(
          new PutObjectCommand({
            ...this.object(key),
            Body: createReadStream(file),
            ContentLength: size,
            ContentType: contentType,
          }),
        );
        return;
      } catch (error) {
        if (attempt >= PUT_FILE_ATTEMPTS || !transient(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }

  async putBytes(key: string, bytes: Buffer | string, contentType = contentTypeOf(key)) {
    await this.client.send(
      new PutObjectCommand({ ...this.object(key), Body: bytes, ContentType: contentType }),
    );
  }

  async download(key: string, file: string): Promise<boolean> {
    const body = await this.read(key);
    if (!body) return false;
    await mkdir(path.dirname(file), { recursive: true });
    const part = `${file}.part-${process.pid}-${Date.now()}`;
    try {
      await pipeline(body, createWriteStream(part));
      await rename(part, file);
    } catch (error) {
      await rm(part, { force: true });
      throw error;
    }
    return true;
  }

  async list(prefix: string): Promise<StoredEntry[]> {
    checkKey(prefix, { prefix: true });
    const entries: StoredEntry[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.config.bucket,
          Prefix: this.base + prefix,
          ContinuationToken: token,
        }),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key) entries.push({ key: item.Key.slice(this.base.length), size: item.Size ?? 0 });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return entries.sort((a, b) => a.key.localeCompare(b.key));
  }

  async remove(keyOrPrefix: string): Promise<void> {
    checkKey(keyOrPrefix, { prefix: true });
    if (keyOrPrefix === '') throw new Error('refusing to remove a whole media store');
    const keys = keyOrPrefix.endsWith('/')
      ? (await this.list(keyOrPrefix)).map((entry) => entry.key)
      : [keyOrPrefix];
    // DeleteObjects takes up to 1,000 keys a call.
    for (let start = 0; start < keys.length; start += 1000) {
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.config.bucket,
          Delete: {
            Objects: keys.slice(start, start + 1000).map((key) => ({ Key: this.base + key })),
            Quiet: true,
          },
        }),
      );
    }
  }
}
