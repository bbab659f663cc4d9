-- Calls in flight to each outside service (issue 35), shared by every API and worker process:
-- a call holds one of its provider's slots (0 to its concurrency - 1) until it ends; a process
-- that dies leaves its slot to expire (expires_at: the provider's time limit and a margin).
CREATE TABLE provider_slots (
  provider text NOT NULL,
  slot integer NOT NULL,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (provider, slot)
);
