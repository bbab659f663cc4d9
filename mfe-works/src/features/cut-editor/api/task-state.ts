import type { TaskState } from '@kol/shared-sdk';

/** A task still under way: followed until it is not. */
export const isRunningState = (state: TaskState) => state === 'queued' || state === 'running';

/**
 * The query key of a work's newest task (`get_work_result` by work): the editor's load puts its
 * answer there, and the merge's progress is followed under it (the video remote's pages follow
 * a work's task under the same key).
 */
export const workResultKey = (workId: number) => ['work-result', workId] as const;
