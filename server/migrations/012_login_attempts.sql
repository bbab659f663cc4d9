-- Login attempts, one counter row per key: 'ip:<addr>' and 'user-ip:<addr> <username>'.
-- An attempt locks its rows, checks them and counts itself before the password is hashed, so
-- parallel guesses are counted one after the other (login_failures counted a failure only after
-- the hash, and a burst was checked in full). Shared by every server process.
CREATE TABLE login_attempts (
  key             text        PRIMARY KEY,
  -- Attempts that were let through to the password check since the last reset; a success
  -- takes its own back (and clears its username's row), so this counts failures.
  failures        integer     NOT NULL DEFAULT 0,
  -- Every attempt since the last reset, let through or told to wait.
  attempts        integer     NOT NULL DEFAULT 0,
  -- No attempt of this key is let through before then (the growing delay).
  blocked_until   timestamptz,
  last_attempt_at timestamptz NOT NULL DEFAULT now()
);
-- Rows quiet for the reset time are deleted by the next failed login.
CREATE INDEX login_attempts_last_attempt_idx ON login_attempts (last_attempt_at);

DROP TABLE login_failures;
