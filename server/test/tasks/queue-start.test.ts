import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import { onPostgres, openTestDatabase } from '../helpers/test-app';
import { openTaskQueue, type TaskQueue } from '../../src/tasks/queue';

// Processes started side by side on a fresh database (the scale-out deployment: two workers and
// two API processes) all find pg-boss uninstalled and all install it. Each process has a pool of
// its own here, as it would. The embedded database has one process, hence one queue.
const schema = `t_${randomBytes(6).toString('hex')}`;
const handles: Array<Awaited<ReturnType<typeof openTestDatabase>>> = [];
const queues: TaskQueue[] = [];

afterAll(async () => {
  for (const queue of queues) await queue.stop();
  for (const handle of handles) await handle.close();
});

it('starts every process that races to install the queue, and leaves no session in a failed transaction', async () => {
  for (let i = 0; i < (onPostgres ? 4 : 1); i += 1) handles.push(await openTestDatabase(schema));
  const errors: unknown[] = [];
  const started = await Promise.allSettled(
    handles.map(({ db }) =>
      openTaskQueue(db, {
        schema,
        sharedDatabase: onPostgres,
        supervise: false,
        onError: (error) => errors.push(error),
      }),
    ),
  );
  for (const result of started) if (result.status === 'fulfilled') queues.push(result.value);
  expect(started.filter((result) => result.status === 'rejected')).toEqual([]);

  // Every session of every pool answers: none was handed back inside an aborted transaction.
  for (const { db } of handles) {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => sql<{ one: number }>`SELECT 1 AS one`.execute(db)),
    );
    expect(answers.map((answer) => answer.rows[0]?.one)).toEqual([1, 1, 1, 1, 1, 1]);
  }
  // And the queues work: a job sent through the first is seen by the last.
  const [first, last] = [queues[0], queues.at(-1)];
  if (!first || !last || !handles[0]) throw new Error('no queue started');
  const jobId = await first.send('task-1', handles[0].db);
  expect(await last.job(jobId)).toMatchObject({ state: 'created' });
  expect(errors).toEqual([]);
});
