// Entry of the book parser's worker thread, started by parse-off-thread.ts.
//
// Plain JavaScript on purpose: Node loads a worker's entry file itself, before any TypeScript
// hook exists in the new thread, and on Node 20 `--import tsx` in a worker's execArgv does not
// reach its entry (measured: "Unknown file extension .ts"). tsx's API loads the TypeScript, so
// this works the same whether the server runs under tsx or the tests under jest (CommonJS).
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { runParseJob } = await tsImport('./parse-job.ts', import.meta.url);
parentPort.postMessage(runParseJob(workerData));
