-- Durable video tasks: one row per generation of a work, one row per stage of it.
-- pg-boss (its own schema, same database) carries the jobs; these rows are the truth the
-- job reads on every (re)start, so a retried job skips every stage already succeeded.

CREATE TABLE video_tasks (
  id            uuid        PRIMARY KEY,
  work_id       integer     NOT NULL REFERENCES works (id) ON DELETE CASCADE,
  user_id       integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The work's project type when the task started (spec section 3 numbers).
  type          integer     NOT NULL,
  state         text        NOT NULL DEFAULT 'queued'
                CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  stage         text        NOT NULL DEFAULT '',
  progress      real        NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 100),
  eta_seconds   integer,
  -- The quota type and bucket the start spent, so a failure gives back exactly that count;
  -- refunded_at set once the count went back (the UPDATE that sets it guards "exactly once").
  quota_type    text,
  quota_bucket  text        CHECK (quota_bucket IN ('gen', 'reward', 'merge')),
  refunded_at   timestamptz,
  -- Chinese, naming the stage, the shot and the provider.
  error         text,
  outputs       jsonb       NOT NULL DEFAULT '{}',
  -- The runner process holding the task and its last heartbeat: a lease, so two jobs for one
  -- task (a pg-boss retry and a re-enqueue after a restart) never run it twice at once.
  runner_id     text,
  heartbeat_at  timestamptz,
  started_at    timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  finished_at   timestamptz
);
CREATE INDEX video_tasks_work_idx ON video_tasks (work_id, created_at DESC);
CREATE INDEX video_tasks_unfinished_idx ON video_tasks (heartbeat_at)
  WHERE state IN ('queued', 'running');
-- One unfinished task per work: a second start while one runs is refused.
CREATE UNIQUE INDEX video_tasks_one_active_idx ON video_tasks (work_id)
  WHERE state IN ('queued', 'running');

CREATE TABLE video_task_stages (
  task_id     uuid        NOT NULL REFERENCES video_tasks (id) ON DELETE CASCADE,
  name        text        NOT NULL,
  position    integer     NOT NULL,
  weight      real        NOT NULL DEFAULT 1 CHECK (weight > 0),
  state       text        NOT NULL DEFAULT 'queued'
              CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  progress    real        NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 100),
  outputs     jsonb,
  error       text,
  attempts    integer     NOT NULL DEFAULT 0,
  started_at  timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (task_id, name),
  UNIQUE (task_id, position)
);
