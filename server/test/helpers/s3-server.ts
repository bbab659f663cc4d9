import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { storesFrom, type MediaStores, type S3StoreConfig } from '../../src/storage';
import { s3Client } from '../../src/storage/s3-store';

export interface TestS3Server {
  config: S3StoreConfig;
  /** Where s3rver keeps the objects (to show nothing else was written). */
  directory: string;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server in this process on loopback (s3rver), with a fresh bucket: the
 * object store the tests put media into, spoken to by the same SDK and settings as AWS, MinIO
 * or R2 would be (MEDIA_STORE=s3, path-style).
 */
export async function startS3Server(bucket = 'kol-media'): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'kol-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = (await server.run()) as { port: number };
  const config: S3StoreConfig = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    // s3rver's fixed test credentials.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
    prefix: 'kol/',
  };
  const client = s3Client(config);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return {
    config,
    directory,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The stores of a process of its own (a "machine") on the test's S3 server: its working folders
 * and its copies of stored keys under `dir`.
 */
export function storesOn(server: TestS3Server, dir: string): Promise<MediaStores> {
  return storesFrom({
    mediaStore: server.config,
    mediaDir: path.join(dir, 'media'),
    uploadsDir: path.join(dir, 'uploads'),
    releasesDir: path.join(dir, 'releases'),
    storeCacheDir: path.join(dir, 'copies'),
  });
}
