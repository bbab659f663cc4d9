-- Video and audio uploads live beside images in user_uploads: the same owner checks, the same
-- /uploads/ files. `kind` tells them apart so the image list stays images only; the duration
-- is probed once at upload, so the pages and pipelines never re-probe to show or check it.
ALTER TABLE user_uploads ADD COLUMN kind text NOT NULL DEFAULT 'image'
  CHECK (kind IN ('image', 'video', 'audio'));
ALTER TABLE user_uploads ADD COLUMN duration_ms integer;
CREATE INDEX user_uploads_user_kind_idx ON user_uploads (user_id, kind, created_at DESC, id DESC);
