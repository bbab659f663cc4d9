import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');

/** A port free on loopback now (the platform's, a dev server's). */
export function freePort(): Promise<number> {
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
 * The platforms started by this process. Each runs in a process group of its own (so `stop` ends
 * the server under the start script too), which also means it would outlive jest when jest is
 * stopped from outside (the test command stops both lanes at the first failure, CI at its time
 * limit): they are ended with it.
 */
const running = new Set<number>();
let endedWithUs = false;
function endWithThisProcess(): void {
  if (endedWithUs) return;
  endedWithUs = true;
  const endAll = () => {
    for (const pid of running) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  };
  process.once('exit', endAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      endAll();
      process.exit(1);
    });
  }
}

export interface StartedPlatform {
  url: string;
  dataDir: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * Starts the product exactly as the README's start command does (it builds what is missing or
 * changed), on a free port, with a fresh data directory and any extra environment, on this
 * process's Node or on `node` (a path to another Node binary).
 */
export async function startPlatform(
  env: Record<string, string> = {},
  { node = process.execPath }: { node?: string } = {},
): Promise<StartedPlatform> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kol-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(node, [path.join(REPO, 'scripts', 'start.mjs')], {
    cwd: REPO,
    env: {
      ...process.env,
      // The start script runs pnpm under its own Node, and pnpm the server's bundle
      // (scripts/server.mjs) with the `node` on PATH: that Node first, so every process of the
      // platform runs on it.
      PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Fresh data every run: generating the music and loops would only take the tests' cores.
      WARM_UP_LIBRARIES: 'false',
      // Videos at a quarter size (270x480, the smallest the setting allows): a sixteenth of the
      // pixels for ffmpeg and the frame renderer, on a machine whose two cores the server's
      // suites share. What the tests check (steps, progress, captions, reports, frames compared
      // at thumbnail size) does not depend on it; the full size is checked by the server's
      // frame tests (test/video/frames-artifact.test.ts).
      VIDEO_RENDER_PERCENT: '25',
      // The header offers 联系我们 only with lines configured (none by default).
      CONTACT_LINES: '邮箱:kol-e2e@example.com',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  const pid = child.pid;
  if (pid) {
    running.add(pid);
    child.once('exit', () => running.delete(pid));
    endWithThisProcess();
  }
  // Builds on 2 cores can take minutes on a fresh clone; later starts reuse them.
  await waitForHealth(url, child, 15 * 60_000);
  const stop = async () => {
    if (child.pid && child.exitCode === null) {
      // The start script runs the server as its child: end the whole group.
      process.kill(-child.pid, 'SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  };
  return { url, dataDir, child, stop };
}
