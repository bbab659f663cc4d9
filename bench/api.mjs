// Throughput of GET /api/user/current with a session, beside a bare Fastify hello.
// Usage: node bench/api.mjs [--duration 10] [--connections 50]   (see bench/README.md)
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, waitFor } from './lib/net.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// autocannon and fastify are dependencies of @kol/server; resolve them from there.
const requireFromServer = createRequire(path.join(root, 'server', 'package.json'));
const autocannon = requireFromServer('autocannon');
const fastifyPath = requireFromServer.resolve('fastify');

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);

const children = [];
function start(command, args, options) {
  const child = spawn(command, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
    ...options,
  });
  children.push(child);
  return child;
}
function stopAll() {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));

async function measure(title, options) {
  await autocannon({ ...options, duration: 2, connections }); // warm-up (JIT, pools)
  const result = await autocannon({ ...options, duration, connections });
  const non2xx = result.non2xx + result.errors + result.timeouts;
  return { title, rps: result.requests.average, p99: result.latency.p99, non2xx };
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kol-bench-'));
try {
  const apiPort = await freePort();
  const helloPort = await freePort();

  // The real server, embedded database in a fresh DATA_DIR, request logs off (the hello has none).
  start('pnpm', ['--silent', '--filter', '@kol/server', 'start'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
  });
  // The bare Fastify hello, in its own process like the server.
  const helloSource = `
    const { default: Fastify } = await import(${JSON.stringify(fastifyPath)});
    const app = Fastify();
    app.get('/', async () => ({ hello: 'world' }));
    await app.listen({ port: ${helloPort}, host: '127.0.0.1' });`;
  start(process.execPath, ['--input-type=module', '-e', helloSource], {});

  const api = `http://127.0.0.1:${apiPort}`;
  await Promise.all([waitFor(`${api}/healthz`), waitFor(`http://127.0.0.1:${helloPort}/`)]);

  const login = await fetch(`${api}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', platform: 'pc' },
    body: JSON.stringify({ username: 'demo', password: 'demo123456' }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  if (!cookie.startsWith('kol_session='))
    throw new Error(`demo login failed: ${await login.text()}`);
  const check = await (await fetch(`${api}/api/user/current`, { headers: { cookie } })).json();
  if (check.code !== 0) throw new Error(`session does not work: ${JSON.stringify(check)}`);

  console.log(
    `autocannon: ${connections} connections, ${duration} s each after a 2 s warm-up, ${os.cpus().length} CPUs`,
  );
  const hello = await measure('bare Fastify hello', { url: `http://127.0.0.1:${helloPort}/` });
  const current = await measure('GET /api/user/current', {
    url: `${api}/api/user/current`,
    headers: { cookie },
  });

  for (const row of [hello, current]) {
    console.log(
      `${row.title.padEnd(24)} ${row.rps.toFixed(0).padStart(7)} req/s   p99 ${String(row.p99).padStart(4)} ms` +
        (row.non2xx ? `   (${row.non2xx} failed)` : ''),
    );
  }
  console.log(
    `ratio current/hello: ${(current.rps / hello.rps).toFixed(2)} of the throughput, ` +
      `p99 ${current.p99} ms vs ${hello.p99} ms`,
  );
} finally {
  stopAll();
  await new Promise((resolve) => setTimeout(resolve, 500));
  await rm(dataDir, { recursive: true, force: true });
}
