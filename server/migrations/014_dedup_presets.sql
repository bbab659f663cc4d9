-- The de-duplication presets a user last saved (/video/cutDuplicates/config): one row a user,
-- read back as the starting presets of the de-dup pages and of a new reverse video.
CREATE TABLE dedup_presets (
  user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  presets jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
