import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ImageProviderConfig } from '../../config';
import { findRepoRoot } from '../../paths';
import { ProviderError } from '../errors';
import { host, httpFailure, withDeadline } from '../http';
import { IMAGE_REJECTED, pictureFormat, type ImageProvider, type ImageRequest } from './types';

type ComfyUiConfig = Extract<ImageProviderConfig, { kind: 'comfyui' }>;

/** The txt2img workflow shipped with the server (API format, with placeholders). */
export const DEFAULT_WORKFLOW_PATH = (): string =>
  path.join(findRepoRoot(), 'server', 'src', 'providers', 'images', 'comfyui-txt2img.json');

/** Stable Diffusion draws about a megapixel in multiples of 64: the long side becomes 1024. */
export function comfySize(width: number, height: number): { width: number; height: number } {
  const scale = 1024 / Math.max(width, height);
  const round = (value: number) => Math.max(64, Math.round((value * scale) / 64) * 64);
  return { width: round(width), height: round(height) };
}

/**
 * Fills a workflow's placeholders: a string that is exactly `%seed%`, `%width%` or `%height%`
 * becomes the number; `%prompt%`, `%negative_prompt%`, `%checkpoint%` and `%reference_image%`
 * are replaced inside strings. Anything else is left as the workflow has it.
 */
export function fillWorkflow(workflow: unknown, values: Record<string, string | number>): unknown {
  if (typeof workflow === 'string') {
    const exact = /^%(\w+)%$/.exec(workflow)?.[1];
    if (exact !== undefined && typeof values[exact] === 'number') return values[exact];
    return workflow.replace(/%(\w+)%/g, (whole, key: string) =>
      values[key] === undefined ? whole : String(values[key]),
    );
  }
  if (Array.isArray(workflow)) return workflow.map((item) => fillWorkflow(item, values));
  if (workflow && typeof workflow === 'object') {
    return Object.fromEntries(
      Object.entries(workflow).map(([key, value]) => [key, fillWorkflow(value, values)]),
    );
  }
  return workflow;
}

interface HistoryEntry {
  status?: { status_str?: string; completed?: boolean; messages?: unknown[] };
  outputs?: Record<
    string,
    { images?: Array<{ filename: string; subfolder?: string; type?: string }> }
  >;
}

/** The exception message of a failed run, from the history's status messages. */
function executionError(entry: HistoryEntry): string {
  for (const message of entry.status?.messages ?? []) {
    if (Array.isArray(message) && message[0] === 'execution_error') {
      const detail = message[1] as { exception_message?: unknown; node_type?: unknown };
      const text = typeof detail?.exception_message === 'string' ? detail.exception_message : '';
      const node = typeof detail?.node_type === 'string' ? `${detail.node_type}：` : '';
      return `${node}${text.trim().slice(0, 160)}`;
    }
  }
  return '';
}

/**
 * A ComfyUI server through its HTTP API: `POST /prompt` queues the workflow, `GET /history/{id}`
 * is polled until the run has outputs, `GET /view` answers the picture. The seed and size go
 * into the workflow; a workflow with `%reference_image%` gets the role's picture uploaded
 * (`POST /upload/image`) first.
 */
export function createComfyUiProvider(
  config: ComfyUiConfig,
  options: { pollMs?: number } = {},
): ImageProvider {
  const label = `ComfyUI（${host(config.url)}）`;
  const who = `图像服务 ${label}`;
  const pollMs = options.pollMs ?? 500;
  const workflowPath = config.workflowPath ?? DEFAULT_WORKFLOW_PATH();
  let workflow: Promise<unknown> | null = null;

  const loadWorkflow = () => {
    workflow ??= readFile(workflowPath, 'utf8')
      .then((text) => JSON.parse(text) as unknown)
      .catch((error: unknown) => {
        workflow = null;
        throw new ProviderError(
          'rejected',
          `ComfyUI 工作流文件 ${workflowPath} 无法读取或不是 JSON（${error instanceof Error ? error.message : String(error)}），请检查 COMFYUI_WORKFLOW`,
        );
      });
    return workflow;
  };

  const malformed = (what: string) =>
    new ProviderError('malformed', `${who} ${what}，请检查 COMFYUI_URL 是否为 ComfyUI 服务`);

  async function json<T>(response: Response): Promise<T> {
    const body = await response.text();
    if (!response.ok)
      throw httpFailure(who, response.status, body, {
        keyHint: 'ComfyUI 的访问设置',
        rejectedHint: IMAGE_REJECTED,
      });
    try {
      return JSON.parse(body) as T;
    } catch {
      throw malformed('返回的数据无法解析');
    }
  }

  async function uploadReference(file: string, signal: AbortSignal): Promise<string> {
    const form = new FormData();
    form.append('image', new Blob([await readFile(file)]), path.basename(file));
    form.append('overwrite', 'true');
    const answer = await json<{ name?: unknown; subfolder?: unknown }>(
      await fetch(`${config.url}/upload/image`, { method: 'POST', body: form, signal }),
    );
    if (typeof answer.name !== 'string') throw malformed('没有返回上传的参考图名称');
    return typeof answer.subfolder === 'string' && answer.subfolder
      ? `${answer.subfolder}/${answer.name}`
      : answer.name;
  }

  return {
    name: 'comfyui',
    label,
    draw(request: ImageRequest, signal: AbortSignal) {
      let promptId: string | null = null;
      return withDeadline(who, config.timeoutMs, signal, async (deadline) => {
        const template = await loadWorkflow();
        const size = comfySize(request.width, request.height);
        const wantsReference = JSON.stringify(template).includes('%reference_image%');
        if (wantsReference && !request.referenceImagePath) {
          throw new ProviderError(
            'rejected',
            `${who} 的工作流需要参考图（%reference_image%），请先为角色生成或上传形象`,
          );
        }
        const reference =
          wantsReference && request.referenceImagePath
            ? await uploadReference(request.referenceImagePath, deadline)
            : '';
        const prompt = fillWorkflow(template, {
          prompt: request.prompt,
          negative_prompt: request.negativePrompt ?? '',
          seed: request.seed,
          width: size.width,
          height: size.height,
          checkpoint: config.checkpoint,
          reference_image: reference,
        });
        const queued = await json<{ prompt_id?: unknown }>(
          await fetch(`${config.url}/prompt`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ prompt, client_id: randomUUID() }),
            signal: deadline,
          }),
        );
        if (typeof queued.prompt_id !== 'string') throw malformed('没有返回任务编号');
        promptId = queued.prompt_id;

        let entry: HistoryEntry | undefined;
        for (;;) {
          const history = await json<Record<string, HistoryEntry>>(
            await fetch(`${config.url}/history/${encodeURIComponent(promptId)}`, {
              signal: deadline,
            }),
          );
          entry = history[promptId];
          if (entry?.status?.status_str === 'error') {
            const detail = executionError(entry);
            throw new ProviderError(
              'server',
              `${who} 运行工作流出错${detail ? `（${detail}）` : ''}，请检查工作流与模型`,
            );
          }
          const done = entry?.status?.completed ?? entry?.outputs !== undefined;
          if (entry && done) break;
          await sleep(pollMs, undefined, { signal: deadline });
        }
        const image = Object.values(entry.outputs ?? {}).flatMap((out) => out.images ?? [])[0];
        if (!image) throw malformed('运行完成但没有输出图片（工作流缺少 SaveImage 节点？）');
        const query = new URLSearchParams({
          filename: image.filename,
          subfolder: image.subfolder ?? '',
          type: image.type ?? 'output',
        });
        const view = await fetch(`${config.url}/view?${query.toString()}`, { signal: deadline });
        if (!view.ok)
          throw httpFailure(who, view.status, await view.text(), {
            keyHint: 'ComfyUI 的访问设置',
            rejectedHint: IMAGE_REJECTED,
          });
        const bytes = Buffer.from(await view.arrayBuffer());
        if (!pictureFormat(bytes)) throw malformed('返回的内容不是 PNG、JPEG 或 WebP 图片');
        promptId = null;
        return bytes;
      }).catch(async (error: unknown) => {
        // A run given up on (timeout, cancel) leaves the queue, so the GPU is not kept busy.
        if (promptId) {
          await fetch(`${config.url}/queue`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ delete: [promptId] }),
            signal: AbortSignal.timeout(2_000),
          }).catch(() => undefined);
        }
        throw error;
      });
    },
  };
}
