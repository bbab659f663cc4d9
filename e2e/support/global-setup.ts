import { startPlatform } from './start-platform';

/** One platform for the whole run, started as the README's start command starts it. */
export default async function globalSetup(): Promise<void> {
  const platform = await startPlatform();
  process.env.KOL_E2E_URL = platform.url;
  process.env.KOL_E2E_DATA_DIR = platform.dataDir;
  (globalThis as { kolPlatform?: typeof platform.child }).kolPlatform = platform.child;
}
