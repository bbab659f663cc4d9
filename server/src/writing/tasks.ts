import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { TextResult, WritingStreamEvent } from '@kol/shared-sdk/contracts';
import { toResult, type WritingTasksRepository } from '../repositories/writing-tasks';
import { ProviderError } from '../providers/errors';

export const RESTART_MESSAGE = '服务重启，生成已中断，请重试';
const INTERNAL_MESSAGE = '生成失败：服务器内部错误，请重试';
/** A task that ends without a word: the caller gets this refusal, never an empty text. */
export const EMPTY_TEXT_MESSAGE = '没有写出任何文字：原文里没有可用的句子，请补充原文后重试';

export type StreamListener = (event: WritingStreamEvent) => void;

/** What a task writes: the text in pieces, stopping when the signal aborts. */
export type TaskJob = (signal: AbortSignal) => AsyncIterable<string>;

interface LiveTask {
  controller: AbortController;
  text: string;
  listeners: Set<StreamListener>;
  /** Settles when the final state is in the database. */
  finished: Promise<void>;
}

export interface WritingTaskOptions {
  repo: WritingTasksRepository;
  log: FastifyBaseLogger;
  /** Pieces are written to the row at most this often (the stream pushes them at once). */
  flushMs?: number;
  /** A running task touches its row this often, so other processes can tell it is alive. */
  heartbeatMs?: number;
}

/**
 * Generation tasks run in the process that accepted them: the row holds state and text (any
 * process answers gen_result from it); listeners in this process get each piece the moment the
 * provider yields it.
 */
export class WritingTaskService {
  private readonly live = new Map<string, LiveTask>();
  private readonly repo: WritingTasksRepository;
  private readonly log: FastifyBaseLogger;
  private readonly flushMs: number;
  private readonly heartbeatMs: number;

  constructor(options: WritingTaskOptions) {
    this.repo = options.repo;
    this.log = options.log;
    this.flushMs = options.flushMs ?? 200;
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
  }

  async start(
    task: {
      userId: number;
      kind: string;
      mode: string;
      input: Record<string, unknown>;
      engine: string;
    },
    job: TaskJob,
  ): Promise<string> {
    const id = randomUUID();
    let markFinished: () => void = () => undefined;
    const live: LiveTask = {
      controller: new AbortController(),
      text: '',
      listeners: new Set(),
      finished: new Promise((resolve) => (markFinished = resolve)),
    };
    // Live before the row exists, so nobody takes a fresh row for one whose process died.
    this.live.set(id, live);
    try {
      await this.repo.create({ id, ...task });
    } catch (error) {
      this.live.delete(id);
      throw error;
    }
    void this.run(id, live, job).finally(() => {
      this.live.delete(id);
      markFinished();
    });
    return id;
  }

  isLive(id: string): boolean {
    return this.live.has(id);
  }

  /** The text so far and each later event, or null when the task does not run in this process. */
  subscribe(
    id: string,
    listener: StreamListener,
  ): { text: string; unsubscribe: () => void } | null {
    const live = this.live.get(id);
    if (!live) return null;
    live.listeners.add(listener);
    return { text: live.text, unsubscribe: () => live.listeners.delete(listener) };
  }

  /** Stops a task running here and waits until its final state is written. */
  async cancelLive(id: string): Promise<boolean> {
    const live = this.live.get(id);
    if (!live) return false;
    live.controller.abort(new Error('cancelled'));
    await live.finished;
    return true;
  }

  /** On shutdown: stop everything and record it, so no row stays "running". */
  async close(): Promise<void> {
    const all = [...this.live.values()];
    for (const live of all) live.controller.abort(new Error('shutdown'));
    await Promise.all(all.map((live) => live.finished));
  }

  private emit(live: LiveTask, event: WritingStreamEvent) {
    for (const listener of live.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log.warn({ err: error }, 'writing stream listener failed');
      }
    }
  }

  private async run(id: string, live: LiveTask, job: TaskJob): Promise<void> {
    const { controller } = live;
    let flushTimer: NodeJS.Timeout | undefined;
    let flushing: Promise<void> = Promise.resolve();
    let written = '';
    const flush = () => {
      flushTimer = undefined;
      flushing = flushing.then(async () => {
        const text = live.text;
        const stillRunning = await this.repo.progress(id, { text, state: 'running' });
        written = text;
        // Cancelled by another process, or taken as dead: stop writing.
        if (!stillRunning) controller.abort(new Error('finished elsewhere'));
      });
      flushing.catch((error: unknown) =>
        this.log.warn({ err: error, taskId: id }, 'writing task flush failed'),
      );
    };
    const heartbeat = setInterval(() => {
      if (!flushTimer) flush();
    }, this.heartbeatMs);
    heartbeat.unref();

    let final: { state: 'succeeded' | 'failed' | 'cancelled'; error: string | null };
    try {
      flush();
      await flushing;
      for await (const piece of job(controller.signal)) {
        if (controller.signal.aborted) break;
        live.text += piece;
        this.emit(live, { type: 'delta', text: piece });
        flushTimer ??= setTimeout(flush, this.flushMs);
      }
      controller.signal.throwIfAborted();
      final = live.text.trim()
        ? { state: 'succeeded', error: null }
        : { state: 'failed', error: EMPTY_TEXT_MESSAGE };
    } catch (error) {
      if (controller.signal.aborted) {
        const reason =
          controller.signal.reason instanceof Error ? controller.signal.reason.message : '';
        final =
          reason === 'shutdown'
            ? { state: 'failed', error: RESTART_MESSAGE }
            : { state: 'cancelled', error: null };
      } else if (error instanceof ProviderError) {
        final = { state: 'failed', error: error.message };
      } else {
        this.log.error({ err: error, taskId: id }, 'writing task failed');
        final = { state: 'failed', error: INTERNAL_MESSAGE };
      }
    } finally {
      clearInterval(heartbeat);
      clearTimeout(flushTimer);
    }
    let result: TextResult;
    try {
      await flushing.catch(() => undefined);
      await this.repo.finish(id, { state: final.state, text: live.text, error: final.error });
      // The row is the truth (a cancel from another process may have won the race).
      const row = await this.repo.find(id);
      result = row ? toResult(row) : { taskId: id, ...final, text: live.text, engine: '' };
    } catch (error) {
      this.log.error(
        { err: error, taskId: id, written: written.length },
        'writing task final write failed',
      );
      result = {
        taskId: id,
        state: 'failed',
        text: live.text,
        engine: '',
        error: INTERNAL_MESSAGE,
      };
    }
    if (result.state === 'failed') {
      this.emit(live, { type: 'error', message: result.error ?? INTERNAL_MESSAGE });
    } else {
      this.emit(live, { type: 'done', result });
    }
    live.listeners.clear();
  }
}
