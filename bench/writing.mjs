// The local writing engine's time for one and ten chapters (promo copy), and the delay the
// server adds between a provider's token and the SSE client receiving it.
// Usage: node bench/writing.mjs [--runs 20] [--tokens 200]   (see bench/README.md)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, waitFor } from './lib/net.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const requireFromServer = createRequire(path.join(root, 'server', 'package.json'));
// tsx (a dependency of @kol/server) loads the engine's TypeScript in this process.
// (the ESM build: require.resolve would find the CommonJS one, which cannot load ESM hooks).
const tsxApi = requireFromServer.resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs');
const { tsImport } = await import(pathToFileURL(tsxApi).href);

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    tokens: { type: 'string', default: '200' },
  },
});
const runs = Number(values.runs);
const tokenCount = Number(values.tokens);

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    max: sorted[sorted.length - 1],
  };
};
const ms = (value) => `${value.toFixed(2)} ms`;

// ---------------------------------------------------------------------------------------------
// 1. Local engine

const engine = await tsImport(
  path.join(root, 'server/src/writing/local/engine.ts'),
  import.meta.url,
);
const analysis = await tsImport(path.join(root, 'server/src/text/analysis.ts'), import.meta.url);
const parse = await tsImport(path.join(root, 'server/src/writing/books/parse.ts'), import.meta.url);

const samplesDir = path.join(root, 'server/assets/sample-books');
const chapters = ['qingdeng-zhaojian.txt', 'wugang-laixin.txt', 'chongfan-1998.txt'].flatMap(
  (name) =>
    parse
      .splitChapters(readFileSync(path.join(samplesDir, name), 'utf8'), name)
      .chapters.map((c) => ({ title: c.title, text: c.content })),
);
// Web-novel chapters run ~3 000 characters; the samples are ~250. A long chapter here is a run
// of sample chapters joined (timing only: the text repeats).
const long = Array.from({ length: 10 }, (_, i) => {
  let text = '';
  for (let k = i; text.length < 3000; k++) text += chapters[k % chapters.length].text + '\n';
  return { title: `长章节 ${i + 1}`, text };
});

let started = performance.now();
analysis.warmUp();
const dictionaryMs = performance.now() - started;

function timeCompose(source) {
  const request = { kind: 'promo', length: 300, bookTitle: '样书', source };
  engine.compose(request, 0); // warm (JIT)
  const samples = [];
  let chars = 0;
  for (let i = 0; i < runs; i++) {
    started = performance.now();
    chars = engine.compose(request, i).length;
    samples.push(performance.now() - started);
  }
  return {
    ...stats(samples),
    chars,
    input: source.reduce((sum, part) => sum + part.text.length, 0),
  };
}

console.log(`local engine (promo, length 300), ${runs} runs each, ${os.cpus().length} CPUs`);
console.log(`  jieba dictionary load (once per process): ${ms(dictionaryMs)}`);
for (const [title, source] of [
  ['1 sample chapter', chapters.slice(0, 1)],
  ['10 sample chapters', chapters.slice(0, 10)],
  ['1 chapter of ~3000 chars', long.slice(0, 1)],
  ['10 chapters of ~3000 chars', long],
]) {
  const row = timeCompose(source);
  console.log(
    `  ${title.padEnd(28)} input ${String(row.input).padStart(6)} chars -> ${row.chars} chars   median ${ms(row.median)}   p95 ${ms(row.p95)}`,
  );
}

// ---------------------------------------------------------------------------------------------
// 2. Token → browser delay through the server

// A fake OpenAI-compatible server in this process: it stamps each token's send time with the
// same clock the SSE client below reads, so the difference is what the server in between adds.
const sentAt = new Map();
const fake = http.createServer((req, res) => {
  req.resume();
  req.on('end', async () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let i = 0; i < tokenCount; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const token = `〔${i}〕`;
      sentAt.set(token, performance.now());
      res.write(
        `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: token } }] })}\n\n`,
      );
    }
    res.end('data: [DONE]\n\n');
  });
});
await new Promise((resolve) => fake.listen(0, '127.0.0.1', resolve));

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kol-bench-writing-'));
const port = await freePort();
const child = spawn('pnpm', ['--silent', '--filter', '@kol/server', 'start'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    AUTO_PUBLISH_REMOTES: 'false',
    LLM_BASE_URL: `http://127.0.0.1:${fake.address().port}/v1`,
    LLM_MODEL: 'bench-model',
    LLM_API_KEY: 'bench',
  },
});
const stop = () => {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
};
process.on('exit', stop);

try {
  const api = `http://127.0.0.1:${port}`;
  await waitFor(`${api}/healthz`, 90_000);
  const login = await fetch(`${api}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', platform: 'pc' },
    body: JSON.stringify({ username: 'demo', password: 'demo123456' }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  if (!cookie.startsWith('kol_session='))
    throw new Error(`demo login failed: ${await login.text()}`);

  const delays = [];
  for (let round = 0; round < 3; round++) {
    const answer = await (
      await fetch(`${api}/api/writing/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', platform: 'pc', cookie },
        body: JSON.stringify({ sourceText: '林默守着青灯。灯灭了。', kind: 'promo' }),
      })
    ).json();
    if (answer.code !== 0) throw new Error(`generate failed: ${JSON.stringify(answer)}`);
    await new Promise((resolve, reject) => {
      http
        .get(
          `${api}/api/writing/gen_stream?taskId=${answer.data.taskId}`,
          { headers: { cookie } },
          (res) => {
            let buffer = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => {
              const now = performance.now();
              buffer += chunk;
              let end;
              while ((end = buffer.indexOf('\n\n')) >= 0) {
                const block = buffer.slice(0, end);
                buffer = buffer.slice(end + 2);
                const data = block.split('\n').find((line) => line.startsWith('data:'));
                if (!block.startsWith('event: delta') || !data) continue;
                const text = JSON.parse(data.slice(5)).text;
                for (const token of text.match(/〔\d+〕/g) ?? []) {
                  const sent = sentAt.get(token);
                  if (sent !== undefined) delays.push(now - sent);
                }
              }
            });
            res.on('end', resolve);
            res.on('error', reject);
          },
        )
        .on('error', reject);
    });
  }
  const delay = stats(delays);
  console.log(
    `token -> SSE client through the server (OpenAI-compatible fake on loopback, ${delays.length} tokens, 10 ms apart):`,
  );
  console.log(`  median ${ms(delay.median)}   p95 ${ms(delay.p95)}   max ${ms(delay.max)}`);
} finally {
  stop();
  fake.close();
  await new Promise((resolve) => setTimeout(resolve, 500));
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(0);
