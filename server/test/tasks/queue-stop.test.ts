import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from '@jest/globals';
import { sql, type KyselyPlugin, type QueryResult, type UnknownRow } from 'kysely';
import { openTestDatabase } from '../helpers/test-app';
import { openTaskQueue, VIDEO_TASK_QUEUE } from '../../src/tasks/queue';

// pg-boss's stop does not wait for a poll already under way, nor for the `complete` / `fail` it
// writes after a job's handler: both reach the database after `stop` resolved. In a process
// that then closes its database, such a statement rejects with nobody to catch it (a series
// test failed in CI with "the embedded database is closed", attributed to the test that had
// started the worker). The queue's stop must leave nothing behind, and a job a late poll
// brings must go back to the queue rather than start on a process going away.
const schema = `t_${randomBytes(6).toString('hex')}`;
let handle: Awaited<ReturnType<typeof openTestDatabase>> | null = null;

afterAll(async () => {
  await handle?.close();
});

it('stops with no statement and no job left running behind it; a job fetched late goes back', async () => {
  handle = await openTestDatabase(schema);
  let slowPolls = false;
  let stopped = false;
  const late: string[] = [];
  // Holds pg-boss's job fetch for a while (a busy database), and notes every statement that
  // answers after the queue's stop resolved.
  const observer: KyselyPlugin = {
    transformQuery: (args) => args.node,
    async transformResult(args): Promise<QueryResult<UnknownRow>> {
      if (stopped) late.push('a statement answered after the stop');
      return args.result;
    },
  };
  const db = handle.db.withPlugin(observer);
  const queue = await openTaskQueue(
    db.withPlugin({
      transformQuery: (args) => args.node,
      async transformResult(args) {
        const fetched = (args.result.rows as Array<{ id?: unknown; data?: unknown }>).some(
          (row) => row.data !== undefined && row.id !== undefined,
        );
        if (slowPolls && fetched) await new Promise((resolve) => setTimeout(resolve, 400));
        return args.result;
      },
    }),
    {
      schema,
      sharedDatabase: false,
      supervise: false,
      pollingIntervalSeconds: 0.5,
      onError: () => {},
    },
  );
  const jobId = await queue.send('task-1', db);
  const ran: string[] = [];
  slowPolls = true;
  await queue.work(1, async (taskId) => {
    ran.push(taskId);
  });
  // The poller's first fetch has the job and is held: stop now.
  await new Promise((resolve) => setTimeout(resolve, 100));
  await queue.stop();
  stopped = true;
  await new Promise((resolve) => setTimeout(resolve, 1_000));

  expect(late).toEqual([]);
  expect(ran).toEqual([]);
  // Handed back: pg-boss retries it (here, at a later start or on another worker).
  const rows = await sql<{ state: string }>`
    SELECT state FROM ${sql.table(`${schema}.job`)}
    WHERE name = ${VIDEO_TASK_QUEUE} AND id = ${jobId}::uuid`.execute(handle.db);
  expect(rows.rows[0]?.state).toBe('retry');
});
