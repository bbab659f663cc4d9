// Starting the product as the README's start command does, for the benchmark scripts.
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitFor } from './net.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * `scripts/start.mjs` on a free port with a fresh data folder and any extra environment; the
 * product's process group ends with this process. Answers the product's URL once it serves.
 */
export async function startProduct(env = {}, prefix = 'kol-bench-') {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const platform = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
  });
  process.on('exit', () => {
    try {
      process.kill(-platform.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`, 15 * 60_000);
  return url;
}

/**
 * The demo user signed in on `base`: its cookie, and `call(method, pathname, body)` answering
 * an API call's data (or throwing the envelope's code and message).
 */
export async function demoSession(base) {
  const login = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', platform: 'pc' },
    body: JSON.stringify({ username: 'demo', password: 'demo123456' }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const call = async (method, pathname, body) => {
    const response = await fetch(`${base}${pathname}`, {
      method,
      headers: { cookie, platform: 'pc', ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const envelope = await response.json();
    if (envelope.code !== 0) throw new Error(`${pathname}: ${envelope.code} ${envelope.msg}`);
    return envelope.data;
  };
  return { cookie, call };
}
