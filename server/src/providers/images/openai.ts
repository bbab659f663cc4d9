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

/**
 * Any OpenAI-compatible images endpoint: `POST {base}/images/generations` with
 * `response_format: b64_json`; a service answering a `url` instead is followed to it. The
 * endpoint takes no seed or reference picture: a role stays recognisable through its fixed
 * description in every prompt.
 */
export function createOpenAiImageProvider(config: OpenAiImagesConfig): ImageProvider {
  const label = `${config.model}（${host(config.baseUrl)}）`;
  const who = `图像服务 ${label}`;
  const malformed = (what: string) =>
    new ProviderError('malformed', `${who} ${what}，请检查服务地址是否为 OpenAI 兼容的图像接口`);

  return {
    name: 'openai',
    label,
    draw(request: ImageRequest, signal: AbortSignal) {
      return withDeadline(who, config.timeoutMs, signal, async (deadline) => {
        const response = await fetch(`${config.baseUrl}/images/generations`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: config.model,
            prompt: request.prompt,
            size: openAiSize(config.portraitSize, request.width, request.height),
            n: 1,
            response_format: 'b64_json',
          }),
          signal: deadline,
        });
        const body = await response.text();
        if (!response.ok)
          throw httpFailure(who, response.status, body, {
            keyHint: 'IMAGE_API_KEY',
            rejectedHint: IMAGE_REJECTED,
          });
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
          if (!download.ok) {
            throw httpFailure(who, download.status, await download.text(), {
              keyHint: 'IMAGE_API_KEY',
              rejectedHint: IMAGE_REJECTED,
            });
          }
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
