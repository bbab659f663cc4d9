-- Revisions of the records a person edits: every change of the record (a person's save or a
-- writer of the server's, such as a drawn picture or a spoken segment) adds one, and a save says
-- which revision it was based on. A save based on an older revision is refused (412) instead
-- of being applied over newer work; the page then merges or asks the person.
ALTER TABLE works ADD COLUMN revision integer NOT NULL DEFAULT 1;
ALTER TABLE cut_videos ADD COLUMN revision integer NOT NULL DEFAULT 1;
ALTER TABLE dedup_presets ADD COLUMN revision integer NOT NULL DEFAULT 1;
ALTER TABLE roles ADD COLUMN revision integer NOT NULL DEFAULT 1;
