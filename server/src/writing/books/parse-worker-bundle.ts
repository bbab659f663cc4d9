// Entry of the book parser's worker thread in the server's bundle (scripts/server-bundle.mjs
// builds it into server/dist/parse-worker.mjs beside server.mjs): parse-job.ts compiled in, so
// the production server needs no TypeScript loader. Under tsx and jest the thread starts from
// parse-worker.mjs instead, which loads parse-job.ts through tsx's API.
import { parentPort, workerData } from 'node:worker_threads';
import { runParseJob, type ParseJobInput } from './parse-job';

parentPort?.postMessage(runParseJob(workerData as ParseJobInput));
