import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { findRepoRoot } from '../../paths';
import { BookRefused } from './parse';
import type { CountedBook, ParseJobInput, ParseJobResult } from './parse-job';

export type { CountedBook } from './parse-job';

/**
 * Parses an uploaded book in a worker thread, so that a hostile or merely huge file costs that
 * thread and never the server's event loop (a 95 MB XHTML parsed on the main thread froze every
 * request for seconds). The worker has a wall-clock limit (it is terminated) and a heap limit
 * (V8 stops it); what it may unpack is bounded by BOOK_LIMITS in parse.ts.
 */

export interface BookParseLimits {
  /** Wall-clock time a parse may take, from the worker's start to its answer. */
  timeoutMs: number;
  /** The worker's V8 heap (old generation), in MB: strings, arrays, the parsed chapters. */
  heapMb: number;
}

/**
 * Measured here (2 cores): the largest accepted books, a 20 MB TXT in UTF-8 or GB18030 (10
 * million characters, 3200 chapters) and an EPUB with a 19 MB XHTML, parse in 0.6 to 1.2 s
 * including the worker's start (about 0.3 s), and all of them also pass with a 128 MB heap.
 * The limits leave room for a busy machine without letting one upload hold a core for long.
 */
export const BOOK_PARSE_LIMITS: BookParseLimits = { timeoutMs: 20_000, heapMb: 256 };

/**
 * Parses running at once. More wait for a slot: each may take a core and hundreds of MB, and
 * the server has other work (on 2 cores, two parses already take both).
 */
const MAX_CONCURRENT_PARSES = 2;

export const TIMEOUT_MESSAGE = (limits: BookParseLimits) =>
  `书籍解析超过 ${limits.timeoutMs / 1000} 秒仍未完成，已停止，请检查文件内容或拆分后再上传`;
export const MEMORY_MESSAGE = (limits: BookParseLimits) =>
  `书籍解析所需内存超过 ${limits.heapMb} MB，已停止，请拆分后再上传`;
export const UNREADABLE_MESSAGE = '无法读取这个书籍文件，请检查文件是否完整';

/** Defined (true) by the bundler in server/dist/*.mjs (scripts/server-bundle.mjs), else absent. */
declare const __KOL_BUNDLED__: boolean | undefined;

/**
 * The worker's entry: in the bundled server its compiled twin beside it (parse-worker-bundle.ts);
 * from the sources, plain JavaScript that loads parse-job.ts through tsx (see the file for why).
 */
const workerFile = () =>
  typeof __KOL_BUNDLED__ !== 'undefined' && __KOL_BUNDLED__
    ? path.join(findRepoRoot(), 'server', 'dist', 'parse-worker.mjs')
    : path.join(findRepoRoot(), 'server', 'src', 'writing', 'books', 'parse-worker.mjs');

let running = 0;
const waiting: Array<() => void> = [];

async function acquireSlot(): Promise<void> {
  if (running < MAX_CONCURRENT_PARSES) {
    running += 1;
    return;
  }
  // The slot is handed over by releaseSlot, so `running` stays counted.
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function releaseSlot(): void {
  const next = waiting.shift();
  if (next) next();
  else running -= 1;
}

/** Reads an uploaded book (see parseBook) in a worker; every refusal is a BookRefused. */
export async function parseBookOffThread(
  bytes: Uint8Array,
  fileName: string,
  limits: BookParseLimits = BOOK_PARSE_LIMITS,
): Promise<CountedBook> {
  await acquireSlot();
  try {
    return await runWorker({ bytes, fileName }, limits);
  } finally {
    releaseSlot();
  }
}

function runWorker(input: ParseJobInput, limits: BookParseLimits): Promise<CountedBook> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerFile(), {
      // Copied, not transferred: a small Buffer may share its memory with others (Buffer pool).
      workerData: input,
      // The server's own flags (tsx's hooks, inspector) are of no use to the parser.
      execArgv: [],
      resourceLimits: {
        maxOldGenerationSizeMb: limits.heapMb,
        maxYoungGenerationSizeMb: 48,
        stackSizeMb: 4,
      },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      // Whatever the outcome, the thread and its memory go now (a no-op once it has exited).
      void worker.terminate();
    };
    const timer = setTimeout(
      () => settle(() => reject(new BookRefused('timeout', TIMEOUT_MESSAGE(limits)))),
      limits.timeoutMs,
    );
    worker.once('message', (result: ParseJobResult) =>
      settle(() =>
        result.ok ? resolve(result.book) : reject(new BookRefused(result.reason, result.message)),
      ),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new BookRefused('memory', MEMORY_MESSAGE(limits))
            : // A parser bug on this input: the user gets a 400, the log gets the cause.
              new BookRefused('unreadable', UNREADABLE_MESSAGE, { cause: error }),
        ),
      ),
    );
    worker.once('exit', (code) =>
      settle(() =>
        reject(
          new BookRefused('unreadable', UNREADABLE_MESSAGE, {
            cause: new Error(`book parser exited with code ${code} without an answer`),
          }),
        ),
      ),
    );
  });
}
