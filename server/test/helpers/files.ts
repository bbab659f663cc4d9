import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The files below a folder, as paths relative to it (none when it does not exist). */
export function filesBelow(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  } catch {
    return [];
  }
}
