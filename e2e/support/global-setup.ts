import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(
  url: string,
  child: { exitCode: number | null },
  limitMs: number,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the platform exited with ${child.exitCode} before it answered`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the platform did not answer ${url}/healthz in time`);
}

/**
 * Starts the product exactly as the README's start command does (it builds what is missing or
 * changed), on a free port, with a fresh data directory, and leaves its address for the tests.
 */
export default async function globalSetup(): Promise<void> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kol-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(REPO, 'scripts', 'start.mjs')], {
    cwd: REPO,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  // Builds on 2 cores can take minutes on a fresh clone; later runs reuse them.
  await waitForHealth(url, child, 15 * 60_000);
  process.env.KOL_E2E_URL = url;
  process.env.KOL_E2E_DATA_DIR = dataDir;
  (globalThis as { kolPlatform?: typeof child }).kolPlatform = child;
}
