-- My roles: a role of the library (no task) keeps the kind the user gave it (comic 0, overseas
-- comic 5, anime short 11); a role of a task takes its task's type, so this stays null there.
ALTER TABLE roles ADD COLUMN type integer;
CREATE INDEX roles_library_idx ON roles (user_id, updated_at DESC) WHERE task_id IS NULL;

-- The video editor sets the music's gain under the narration (0 to 1); null: the default.
ALTER TABLE cut_videos ADD COLUMN music_volume real CHECK (music_volume >= 0 AND music_volume <= 1);

-- One library role of a name per user, as one role of a name per task (a later add or rename to
-- a taken name answers 409).
CREATE UNIQUE INDEX roles_library_name_idx ON roles (user_id, name) WHERE task_id IS NULL;
