-- Idempotency keys of the create calls (contracts marked `idempotent`): a double click, a retry
-- after a lost answer or a call repeated by another tab carries the same `Idempotency-Key`, and
-- the server answers the first call's stored answer instead of creating a second work, task or
-- spent count. In the database rather than in memory, because several API processes may share
-- one PostgreSQL and the repeat may reach another process than the first call did.
CREATE TABLE idempotency_keys (
  user_id      integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- 'POST /api/video/save_text': a key is one user's, for one route.
  route        text        NOT NULL,
  key          text        NOT NULL,
  -- A hash of what the call asked (query and body): the same key with another request is refused.
  fingerprint  text        NOT NULL,
  -- 'running' while the first call works; 'done' once its answer is stored below. A call that
  -- fails deletes its row, so that a retry does the work (nothing was made).
  state        text        NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done')),
  -- Which call holds a running row, so that only that call stores or frees it.
  owner        uuid        NOT NULL,
  -- A running row whose call died with its process is taken over by a repeat after this.
  locked_until timestamptz NOT NULL,
  status_code  integer,
  -- The answer's envelope, as JSON text, replayed as it was.
  response     text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  -- After this the key is forgotten: a repeat is a new call, and the sweep deletes the row.
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (user_id, route, key),
  CHECK ((state = 'done') = (response IS NOT NULL))
);
CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at);
