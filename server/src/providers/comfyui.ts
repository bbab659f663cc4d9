import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderError } from './errors';
import { httpFailure } from './http';

/**
 * What the image and the video providers share of a ComfyUI server's HTTP API: the workflow
 * file with placeholders, `POST /upload/image` for input pictures, `POST /prompt` to queue,
 * `GET /history/{id}` polled until the run has outputs, `GET /view` for an output file, and
 * `POST /queue {delete}` so a run given up on does not keep the GPU busy.
 */

/**
 * Fills a workflow's placeholders: a string that is exactly `%name%` of a number value becomes
 * the number; any other `%name%` of a known value is replaced inside strings. Anything else is
 * left as the workflow has it.
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

/** A file a run wrote (`SaveImage`'s `images`, `SaveVideo`'s too, VideoHelperSuite's `gifs`). */
export interface ComfyOutputFile {
  filename: string;
  subfolder?: string;
  type?: string;
}

interface HistoryEntry {
  status?: { status_str?: string; completed?: boolean; messages?: unknown[] };
  outputs?: Record<string, Record<string, unknown>>;
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

/** Every output file of a run, node by node, under the given output keys in their order. */
export function outputFiles(
  outputs: Record<string, Record<string, unknown>> | undefined,
  keys: readonly string[],
): ComfyOutputFile[] {
  const files: ComfyOutputFile[] = [];
  for (const key of keys) {
    for (const node of Object.values(outputs ?? {})) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      for (const item of list as unknown[]) {
        const file = item as Partial<ComfyOutputFile> | null;
        if (file && typeof file.filename === 'string') files.push(file as ComfyOutputFile);
      }
    }
  }
  return files;
}

export interface ComfyClientOptions {
  url: string;
  /** The service as the user reads it, e.g. `图像服务 ComfyUI（host）`. */
  who: string;
  /** The settings of the server's address and of the workflow, named when they look wrong. */
  urlSetting: string;
  workflowSetting: string;
  workflowPath: string;
  /** What to check when the server rejects a request. */
  rejectedHint: string;
  pollMs: number;
}

export interface ComfyRun {
  /** Placeholder values; `uploads` adds the uploaded files' names under their placeholder. */
  values: Record<string, string | number>;
  /** Input pictures to upload first, by placeholder (e.g. `reference_image`, `image`). */
  uploads?: Record<string, string>;
  /** The output file to fetch, among those of the finished run. */
  pick: (outputs: HistoryEntry['outputs']) => ComfyOutputFile | undefined;
  /** Said when `pick` finds nothing (Chinese, e.g. `运行完成但没有输出图片`). */
  nothingOut: string;
  signal: AbortSignal;
}

export interface ComfyClient {
  /** The workflow as its file holds it (read once). */
  workflow(): Promise<unknown>;
  /** Runs the filled workflow and answers the picked output file's bytes. */
  run(run: ComfyRun): Promise<Buffer>;
  malformed(what: string): ProviderError;
}

export function createComfyClient(options: ComfyClientOptions): ComfyClient {
  const { url, who, rejectedHint } = options;
  let workflow: Promise<unknown> | null = null;

  const loadWorkflow = () => {
    workflow ??= readFile(options.workflowPath, 'utf8')
      .then((text) => JSON.parse(text) as unknown)
      .catch((error: unknown) => {
        workflow = null;
        throw new ProviderError(
          'rejected',
          `ComfyUI 工作流文件 ${options.workflowPath} 无法读取或不是 JSON（${error instanceof Error ? error.message : String(error)}），请检查 ${options.workflowSetting}`,
        );
      });
    return workflow;
  };

  const malformed = (what: string) =>
    new ProviderError(
      'malformed',
      `${who} ${what}，请检查 ${options.urlSetting} 是否为 ComfyUI 服务`,
    );
  const hints = { keyHint: 'ComfyUI 的访问设置', rejectedHint };

  async function json<T>(response: Response): Promise<T> {
    const body = await response.text();
    if (!response.ok) throw httpFailure(who, response.status, body, hints);
    try {
      return JSON.parse(body) as T;
    } catch {
      throw malformed('返回的数据无法解析');
    }
  }

  async function upload(file: string, signal: AbortSignal): Promise<string> {
    const form = new FormData();
    form.append('image', new Blob([await readFile(file)]), path.basename(file));
    form.append('overwrite', 'true');
    const answer = await json<{ name?: unknown; subfolder?: unknown }>(
      await fetch(`${url}/upload/image`, { method: 'POST', body: form, signal }),
    );
    if (typeof answer.name !== 'string') throw malformed('没有返回上传的图片名称');
    return typeof answer.subfolder === 'string' && answer.subfolder
      ? `${answer.subfolder}/${answer.name}`
      : answer.name;
  }

  async function run(job: ComfyRun): Promise<Buffer> {
    const { signal } = job;
    let promptId: string | null = null;
    try {
      const template = await loadWorkflow();
      const values = { ...job.values };
      for (const [placeholder, file] of Object.entries(job.uploads ?? {})) {
        values[placeholder] = await upload(file, signal);
      }
      const queued = await json<{ prompt_id?: unknown }>(
        await fetch(`${url}/prompt`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ prompt: fillWorkflow(template, values), client_id: randomUUID() }),
          signal,
        }),
      );
      if (typeof queued.prompt_id !== 'string') throw malformed('没有返回任务编号');
      promptId = queued.prompt_id;

      let entry: HistoryEntry | undefined;
      for (;;) {
        const history = await json<Record<string, HistoryEntry>>(
          await fetch(`${url}/history/${encodeURIComponent(promptId)}`, { signal }),
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
        await sleep(options.pollMs, undefined, { signal });
      }
      const file = job.pick(entry.outputs);
      if (!file) throw malformed(job.nothingOut);
      const query = new URLSearchParams({
        filename: file.filename,
        subfolder: file.subfolder ?? '',
        type: file.type ?? 'output',
      });
      const view = await fetch(`${url}/view?${query.toString()}`, { signal });
      if (!view.ok) throw httpFailure(who, view.status, await view.text(), hints);
      const bytes = Buffer.from(await view.arrayBuffer());
      promptId = null;
      return bytes;
    } catch (error) {
      // A run given up on (timeout, cancel, failure) leaves the queue: the GPU is not kept busy.
      if (promptId) {
        await fetch(`${url}/queue`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ delete: [promptId] }),
          signal: AbortSignal.timeout(2_000),
        }).catch(() => undefined);
      }
      throw error;
    }
  }

  return { workflow: loadWorkflow, run, malformed };
}
