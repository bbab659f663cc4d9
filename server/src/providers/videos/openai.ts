import { setTimeout as sleep } from 'node:timers/promises';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import OpenAI, { toFile } from 'openai';
import type { VideoSeconds, VideoSize } from 'openai/resources/videos';
import type { VideoProviderConfig } from '../../config';
import { ProviderError } from '../errors';
import { host, httpFailure, withDeadline } from '../http';
import { openAiSize } from '../images/openai';
import { clipFormat, VIDEO_REJECTED, type ClipRequest, type VideoProvider } from './types';

type OpenAiVideosConfig = Extract<VideoProviderConfig, { kind: 'openai' }>;

/** The shortest length the service makes that covers the shot, else its longest (then held). */
export function clipSeconds(allowed: readonly number[], durationMs: number): number {
  const wanted = durationMs / 1000;
  return allowed.find((seconds) => seconds >= wanted) ?? allowed[allowed.length - 1] ?? 4;
}

/**
 * The picture at exactly the clip's size, cropped to cover it: the videos API takes an input
 * reference only at the size of the video it makes.
 */
export async function coverJpeg(file: string, width: number, height: number): Promise<Buffer> {
  const image = await loadImage(file);
  const scale = Math.max(width / image.width, height / image.height);
  const w = image.width * scale;
  const h = image.height * scale;
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').drawImage(image, (width - w) / 2, (height - h) / 2, w, h);
  return canvas.toBuffer('image/jpeg', 92);
}

/**
 * Any OpenAI-compatible videos endpoint, through the `openai` package: `POST {base}/videos`
 * with the prompt, the shot's picture as `input_reference`, `seconds` and `size`; the job is
 * polled (`GET /videos/{id}`) until it completes or fails, then `GET /videos/{id}/content`
 * answers the MP4. The package retries a 429 or 5xx itself, after the answer's `retry-after`.
 */
export function createOpenAiVideoProvider(
  config: OpenAiVideosConfig,
  options: { maxRetries?: number } = {},
): VideoProvider {
  const label = `${config.model}（${host(config.baseUrl)}）`;
  const who = `视频服务 ${label}`;
  const client = new OpenAI({
    baseURL: config.baseUrl,
    // The package refuses to start without a key; a local service may need none.
    apiKey: config.apiKey || 'none',
    timeout: config.timeoutMs,
    maxRetries: options.maxRetries ?? 2,
  });
  const malformed = (what: string) =>
    new ProviderError(
      'malformed',
      `${who} ${what}，请检查 VIDEO_BASE_URL 是否为 OpenAI 兼容的视频接口`,
    );

  /** An answered failure as the user reads it; anything else goes on to withDeadline. */
  const answered = (error: unknown): unknown =>
    error instanceof OpenAI.APIError && typeof error.status === 'number'
      ? httpFailure(who, error.status, JSON.stringify({ error: error.error }), {
          keyHint: 'VIDEO_API_KEY',
          rejectedHint: VIDEO_REJECTED,
        })
      : error;

  return {
    name: 'openai',
    label,
    animate(request: ClipRequest, signal: AbortSignal) {
      return withDeadline(who, config.timeoutMs, signal, async (deadline) => {
        try {
          const size = openAiSize(config.portraitSize, request.width, request.height);
          const [width = 720, height = 1280] = size.split('x').map(Number);
          const picture = await coverJpeg(request.imagePath, width, height);
          let video = await client.videos.create(
            {
              model: config.model,
              prompt: request.prompt,
              input_reference: await toFile(picture, 'shot.jpg', { type: 'image/jpeg' }),
              seconds: String(clipSeconds(config.seconds, request.durationMs)) as VideoSeconds,
              size: size as VideoSize,
            },
            { signal: deadline },
          );
          while (video.status === 'queued' || video.status === 'in_progress') {
            await sleep(config.pollMs, undefined, { signal: deadline });
            video = await client.videos.retrieve(video.id, { signal: deadline });
          }
          if (video.status !== 'completed') {
            const reason = video.error
              ? `${video.error.message}${video.error.code ? `，${video.error.code}` : ''}`
              : `状态 ${String(video.status)}`;
            throw new ProviderError(
              'rejected',
              `${who} 没有生成出视频（服务返回：${reason.slice(0, 160)}），请修改画面描述或稍后重试`,
            );
          }
          const content = await client.videos.downloadContent(video.id, null, {
            signal: deadline,
          });
          const bytes = Buffer.from(await content.arrayBuffer());
          if (!clipFormat(bytes)) throw malformed('返回的内容不是视频');
          return bytes;
        } catch (error) {
          throw answered(error);
        }
      });
    },
  };
}
