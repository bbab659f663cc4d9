import { readFile } from 'node:fs/promises';
import type { ImageProviderConfig } from '../../config';
import { ProviderError } from '../errors';
import { host, httpFailure, withDeadline } from '../http';
import { IMAGE_REJECTED, pictureFormat, type ImageProvider, type ImageRequest } from './types';

type OpenAiImagesConfig = Extract<ImageProviderConfig, { kind: 'openai' }>;

/** The size to ask for: the configured portrait size, turned for landscape, its short side square. */
export function openAiSize(portraitSize: string, width: number, height: number): string {
  const [w = 1024, h = 1792] = portraitSize.split('x').map(Number);
  const short = Math.min(w, h);
  const long = Math.max(w, h);
  if (width === height) return `${short}x${short}`;
  return height > width ? `${short}x${long}` : `${long}x${short}`;
}

/** The most reference pictures one edit takes (gpt-image-1 takes 16; a shot names few roles). */
const MAX_REFERENCES = 4;

/**
 * Any OpenAI-compatible images endpoint: `POST {base}/images/generations` with
 * `response_format: b64_json`; a service answering a `url` instead is followed to it. A shot
 * whose roles have reference pictures is drawn from them with `POST {base}/images/edits`
 * (multipart, `image[]` each role's picture, lead first), so each role keeps its face; a
 * service without the edit endpoint (404, 405) is asked for generations from then on, the role
 * then recognisable by its fixed description in every prompt. The endpoints take no seed.
 */
export function createOpenAiImageProvider(config: OpenAiImagesConfig): ImageProvider {
  const label = `${config.model}（${host(config.baseUrl)}）`;
  const who = `图像服务 ${label}`;
  const malformed = (what: string) =>
    new ProviderError('malformed', `${who} ${what}，请检查服务地址是否为 OpenAI 兼容的图像接口`);
  const hints = { keyHint: 'IMAGE_API_KEY', rejectedHint: IMAGE_REJECTED };
  const authorization: Record<string, string> = config.apiKey
    ? { authorization: `Bearer ${config.apiKey}` }
    : {};
  /** Set once the service answered that it has no edit endpoint. */
  let noEdits = false;

  const generate = (request: ImageRequest, size: string, signal: AbortSignal) =>
    fetch(`${config.baseUrl}/images/generations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authorization },
      body: JSON.stringify({
        model: config.model,
        prompt: request.prompt,
        size,
        n: 1,
        response_format: 'b64_json',
      }),
      signal,
    });

  /** The edit request of the readable reference pictures; null when none can be read. */
  const edit = async (
    references: string[],
    request: ImageRequest,
    size: string,
    signal: AbortSignal,
  ): Promise<Response | null> => {
    // A reference gone from the data dir is left out, not a failure of the picture.
    const pictures = (
      await Promise.all(references.map((file) => readFile(file).catch(() => null)))
    ).filter((bytes) => bytes !== null && pictureFormat(bytes) !== null) as Buffer[];
    if (pictures.length === 0) return null;
    const form = new FormData();
    form.append('model', config.model);
    form.append('prompt', request.prompt);
    form.append('size', size);
    form.append('n', '1');
    for (const [i, bytes] of pictures.entries()) {
      const type = pictureFormat(bytes) ?? 'png';
      form.append(
        'image[]',
        new Blob([new Uint8Array(bytes)], { type: `image/${type}` }),
        `role-${i}.${type}`,
      );
    }
    return fetch(`${config.baseUrl}/images/edits`, {
      method: 'POST',
      headers: authorization,
      body: form,
      signal,
    });
  };

  return {
    name: 'openai',
    label,
    draw(request: ImageRequest, signal: AbortSignal) {
      return withDeadline(who, config.timeoutMs, signal, async (deadline) => {
        const size = openAiSize(config.portraitSize, request.width, request.height);
        const references = (request.referenceImagePaths ?? []).slice(0, MAX_REFERENCES);
        let response: Response | null = null;
        if (references.length > 0 && !noEdits) {
          response = await edit(references, request, size, deadline);
          if (response && (response.status === 404 || response.status === 405)) {
            noEdits = true;
            await response.body?.cancel();
            response = null;
          }
        }
        response ??= await generate(request, size, deadline);
        const body = await response.text();
        if (!response.ok) throw httpFailure(who, response.status, body, hints, response.headers);
        let first: { b64_json?: unknown; url?: unknown } | undefined;
        try {
          first = (JSON.parse(body) as { data?: Array<typeof first> }).data?.[0];
        } catch {
          throw malformed('返回的数据无法解析');
        }
        let bytes: Buffer;
        if (typeof first?.b64_json === 'string' && first.b64_json.length > 0) {
          bytes = Buffer.from(first.b64_json, 'base64');
        } else if (typeof first?.url === 'string' && /^https?:\/\//.test(first.url)) {
          const download = await fetch(first.url, { signal: deadline });
          if (!download.ok) throw httpFailure(who, download.status, await download.text(), hints);
          bytes = Buffer.from(await download.arrayBuffer());
        } else {
          throw malformed('的回答里没有图片');
        }
        if (!pictureFormat(bytes)) throw malformed('返回的内容不是 PNG、JPEG 或 WebP 图片');
        return bytes;
      });
    },
  };
}
