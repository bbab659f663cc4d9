import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StageTask, TaskFiles } from '../tasks/types';
import { LocalStore } from './local-store';
import type { MediaStore } from './media-store';

/**
 * A task's media folder (`<mediaDir>/<userId>/<taskId>/`, where the pipelines write: see
 * video/pipelines/kit/pipeline.ts `taskFiles`) kept in an object store, for workers
 * on several machines: before its stages run on a worker the folder is fetched from the store
 * (what the finished stages wrote, maybe elsewhere), after each stage what changed is put back,
 * and when the task leaves the worker the local copy goes. `mediaDir` is then only this
 * process's cache. On the local folder store the pipelines write in place: no mirror needed.
 */
export function taskMirror(store: MediaStore, mediaDir: string): TaskFiles | undefined {
  if (store instanceof LocalStore) return undefined;
  /** What this process last fetched or kept of each task: key → size and time of the copy. */
  const known = new Map<string, Map<string, string>>();
  const prefixOf = (task: StageTask) => `${task.userId}/${task.id}/`;
  const folderOf = (task: StageTask) => path.join(mediaDir, String(task.userId), task.id);
  const signature = (info: { size: number; mtimeMs: number }) => `${info.size}:${info.mtimeMs}`;

  return {
    async fetch(task) {
      const seen = new Map<string, string>();
      for (const { key } of await store.list(prefixOf(task))) {
        const file = path.join(mediaDir, ...key.split('/'));
        await store.download(key, file);
        seen.set(key, signature(await stat(file)));
      }
      known.set(task.id, seen);
    },

    async keep(task) {
      const seen = known.get(task.id) ?? new Map<string, string>();
      known.set(task.id, seen);
      for (const file of await filesBelow(folderOf(task))) {
        // Files being written carry a `.part` name until renamed whole.
        if (/\.part(-|$)/.test(path.basename(file))) continue;
        const key = path.relative(mediaDir, file).split(path.sep).join('/');
        const now = signature(await stat(file));
        if (seen.get(key) === now) continue;
        await store.putFile(key, file);
        seen.set(key, now);
      }
    },

    async drop(task) {
      known.delete(task.id);
      await rm(folderOf(task), { recursive: true, force: true });
    },
  };
}

async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await filesBelow(full)));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}
