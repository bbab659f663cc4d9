// The outside probe of issue 11, finding 1, against the real server over HTTP: rounds of 50
// parallel gen_video calls from one user, one per work, with a comics quota of 3. Prints the
// answers by code, 5xx and unanswered requests, counts spent, and tasks left unfinished.
//
//   node bench/concurrency.mjs [--rounds 14] [--parallel 50] [--quota 3]
//
// Starts `pnpm --filter @kol/server start` on the embedded PGlite in a fresh DATA_DIR, unless
// DATABASE_URL is set (then that PostgreSQL). The figures are correctness, not speed: any 5xx,
// unanswered request, wrong spend or orphaned task is a defect.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, waitFor } from './lib/net.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '14' },
    parallel: { type: 'string', default: '50' },
    quota: { type: 'string', default: '3' },
  },
});
const rounds = Number(values.rounds);
const parallel = Number(values.parallel);
const quota = Number(values.quota);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kol-bench-'));
const port = await freePort();
const server = spawn('pnpm', ['--silent', '--filter', '@kol/server', 'start'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'fatal',
    WARM_UP_LIBRARIES: 'false',
    AUTO_PUBLISH_REMOTES: 'false',
  },
});
let exited = null;
server.on('exit', (code, signal) => (exited = signal ?? `exit ${code}`));
const stop = () => {
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    // already gone
  }
};
process.on('exit', stop);
process.on('SIGINT', () => process.exit(130));

const api = `http://127.0.0.1:${port}`;
const json = { 'content-type': 'application/json', platform: 'pc' };

/** One call; `null` when it got no answer within the spec's 240 s (or the connection broke). */
async function call(method, url, { headers = {}, body } = {}) {
  try {
    const response = await fetch(`${api}${url}`, {
      method,
      headers: { ...json, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(240_000),
    });
    const text = await response.text();
    let envelope = null;
    try {
      envelope = JSON.parse(text);
    } catch {
      // not JSON: counted by its status
    }
    return { status: response.status, envelope, headers: response.headers };
  } catch {
    return null;
  }
}

try {
  await waitFor(`${api}/healthz`, 120_000);
  const admin = {
    authorization: `Bearer ${(await readFile(path.join(dataDir, 'admin-token'), 'utf8')).trim()}`,
  };
  const tally = { answers: new Map(), fiveXx: 0, unanswered: 0, wrongSpend: 0, orphaned: 0 };
  for (let round = 1; round <= rounds; round += 1) {
    const username = `probe${round}_${Date.now().toString(36)}`;
    const password = 'probe-password';
    await call('POST', '/api/admin/users/create', {
      headers: admin,
      body: { username, password, templateIds: [0, 1, 2, 3, 4, 5, 6], functionalLevel: 1 },
    });
    await call('POST', '/api/admin/quotas/grant', {
      headers: admin,
      body: { username, type: 'comics', gen: quota, reward: 0, merge: 0 },
    });
    const login = await call('POST', '/api/user/login', { body: { username, password } });
    const cookie = (login?.headers.get('set-cookie') ?? '').split(';')[0];
    const session = { cookie };
    const works = [];
    for (let i = 0; i < parallel; i += 1) {
      const saved = await call('POST', '/api/video/save_text', {
        headers: session,
        body: { title: `作品${i}`, text: '从前有座山。山里有座庙。庙里有个老和尚。' },
      });
      works.push(saved?.envelope?.data?.workId);
    }
    const answers = await Promise.all(
      works.map((workId) =>
        call('POST', '/api/video/gen_video', { headers: session, body: { workId } }),
      ),
    );
    let started = 0;
    for (const answer of answers) {
      if (!answer) {
        tally.unanswered += 1;
        continue;
      }
      if (answer.status >= 500) tally.fiveXx += 1;
      const code = answer.envelope?.code ?? `HTTP ${answer.status}`;
      tally.answers.set(code, (tally.answers.get(code) ?? 0) + 1);
      if (code === 0) started += 1;
    }
    const limits = await call('GET', '/api/user/get_user_limit_info', { headers: session });
    const left = limits?.envelope?.data?.remainGenCount;
    if (started !== quota || left !== 0) tally.wrongSpend += 1;
    // Every task answered "started" must finish (the local engine makes these in seconds).
    const deadline = Date.now() + 180_000;
    let unfinished = 0;
    for (const workId of works) {
      for (;;) {
        const result = await call('GET', `/api/video/get_work_result?workId=${workId}`, {
          headers: session,
        });
        const state = result?.envelope?.data?.state;
        if (!state || !['queued', 'running'].includes(state)) break;
        if (Date.now() > deadline) {
          unfinished += 1;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    tally.orphaned += unfinished;
    console.log(
      `round ${round}: ${started} started, ${left} left, ${unfinished} unfinished after 180 s` +
        (exited ? `; server ${exited}` : ''),
    );
    if (exited) break;
  }
  console.log(
    `answers by code: ${[...tally.answers].map(([code, n]) => `${code}×${n}`).join(', ')}`,
  );
  console.log(
    `5xx: ${tally.fiveXx}; unanswered: ${tally.unanswered}; rounds with a wrong spend: ` +
      `${tally.wrongSpend}; tasks never finished: ${tally.orphaned}; server ${exited ?? 'still up'}`,
  );
} finally {
  stop();
  await rm(dataDir, { recursive: true, force: true });
}
