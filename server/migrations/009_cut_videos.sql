-- The cut-video editor's data of a work (get_cut_video … end_cut_video): the segments a merge
-- renders, each with its text, its picture (a window of a material, or the work's own shot
-- picture when material_id is null) and, once generate_cut_tts ran, its own audio. Segments are
-- one JSON array: they are always read and written whole, and there are at most 500.
CREATE TABLE cut_videos (
  work_id     integer     PRIMARY KEY REFERENCES works (id) ON DELETE CASCADE,
  user_id     integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  segments    jsonb       NOT NULL DEFAULT '[]',
  -- The voice of the last generate_cut_tts ('' before the first).
  voice_id    text        NOT NULL DEFAULT '',
  -- As settings.musicId: < 0 a built-in track, > 0 the user's uploaded audio, 0 none;
  -- null: the work's own music setting.
  music_id    integer,
  -- Set by end_cut_video, cleared by any later change: a merge renders only finished data.
  finished    boolean     NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cut_videos_user_idx ON cut_videos (user_id);
