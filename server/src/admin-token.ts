import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { randomSecret } from './security/secrets';

export const adminTokenPath = (dataDir: string) => path.join(dataDir, 'admin-token');

/**
 * The admin token in DATA_DIR/admin-token, created (mode 600) on first start. `wx` makes the
 * creation atomic: when two processes start at once, one writes and the other reads it.
 */
export async function ensureAdminToken(dataDir: string): Promise<string> {
  const file = adminTokenPath(dataDir);
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(file, randomSecret() + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readAdminToken(dataDir);
}

export async function readAdminToken(dataDir: string): Promise<string> {
  const token = (await readFile(adminTokenPath(dataDir), 'utf8')).trim();
  if (!token) throw new Error(`${adminTokenPath(dataDir)} is empty`);
  return token;
}
