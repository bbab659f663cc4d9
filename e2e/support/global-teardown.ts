import type { ChildProcess } from 'node:child_process';

export default async function globalTeardown(): Promise<void> {
  const child = (globalThis as { kolPlatform?: ChildProcess }).kolPlatform;
  if (child?.pid && child.exitCode === null) {
    // The start script runs the server as its child: end the whole group.
    process.kill(-child.pid, 'SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}
