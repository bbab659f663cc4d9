import type { getWorks } from '@kol/shared-sdk';

/** What `get_works` is asked (a type or every type, a tab, a keyword, a page). */
export type WorksInput = NonNullable<Parameters<typeof getWorks>[0]>;

/**
 * The query keys of the works this remote reads, shared by its pages: an action that changes a
 * work (saved, renamed, moved, deleted, regenerated) invalidates `WORKS_KEY`, so every page of
 * every list that shows works is fetched again when it is next shown.
 */
export const WORKS_KEY = ['works'] as const;

/** One page of works: keyed by exactly what `get_works` is asked, so equal asks share it. */
export const worksKey = (input: WorksInput) => [...WORKS_KEY, input] as const;

/** One work's whole record (`work_info`). */
export const workKey = (workId: number | null) => ['work', workId] as const;

/**
 * A picture task (`img_result`): a segment's redraw, a role's portrait. The video remote's
 * pages follow theirs under the same key.
 */
export const imageTaskKey = (taskId: string) => ['image-task', taskId] as const;
