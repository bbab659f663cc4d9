/**
 * The query keys of the video tasks the pages follow, in one place: two pages on one task (the
 * production list and a result page, a storyboard and its final check) share its cache entry,
 * so it is asked for once and what one learns the other shows.
 */

/** A work's newest task (`get_work_result` with the work id): a `WorkResult`. */
export const workResultKey = (workId: number) => ['work-result', workId] as const;

/** One task by its id (`get_work_result` with the task id): a `WorkResult`. */
export const taskResultKey = (taskId: string) => ['task-result', taskId] as const;
