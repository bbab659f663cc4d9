-- Served-only failure reports (issue 29): a load-failure report counts towards an automatic
-- rollback only from a signed-in user the server itself handed that version, so a handful of
-- accounts that never loaded a release cannot take it away.

-- Which version of each remote the registry (GET /api/platform/remotes) gave each signed-in
-- user, as the active version or as its fallback (a browser falls back to it when the active
-- one fails). Upserted at every signed-in registry read: one row per remote, version and user.
CREATE TABLE remote_serves (
  remote          text        NOT NULL,
  version         text        NOT NULL,
  user_id         integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  first_served_at timestamptz NOT NULL DEFAULT now(),
  last_served_at  timestamptz NOT NULL DEFAULT now(),
  -- Also answers "was this user served it?" and, by its (remote, version) prefix, "how many
  -- users were served it lately?" without a second index to keep up at every read.
  PRIMARY KEY (remote, version, user_id)
);

-- Whether a report counts towards an automatic rollback: signed in, served that version since
-- it went out and, for a running canary, in the canary's share. The others are kept for ops
-- (`remote failures` shows them) but never move a pointer. Reports stored before this were
-- never checked, so none of them counts.
ALTER TABLE remote_load_failures ADD COLUMN counted boolean NOT NULL DEFAULT false;

-- "How many served users reported this version since then?", asked at every counted report;
-- replaces the signed-in index of 015, which that question no longer uses.
DROP INDEX remote_load_failures_signed_in_idx;
CREATE INDEX remote_load_failures_counted_idx
  ON remote_load_failures (remote, version, created_at)
  WHERE counted;

-- What an automatic rollback was measured against and what the server found of the failing
-- version's files before acting. Null on rollbacks recorded before this was kept.
ALTER TABLE remote_auto_rollbacks
  -- Distinct users the version was served to within the window (the reporters among them).
  ADD COLUMN served_users  integer,
  -- REMOTE_AUTO_ROLLBACK_SHARE when it was decided: the reporters' least share of them, in %.
  ADD COLUMN share_percent integer,
  -- The store check of the version's files: its manifest reads and parses, and the remote
  -- entry it names is there and not empty (src/releases/store.ts checkFiles).
  ADD COLUMN files_status  text
    CHECK (files_status IN ('ok', 'manifest-missing', 'manifest-invalid', 'entry-missing',
                            'entry-empty', 'unreadable')),
  ADD COLUMN files_detail  text;
