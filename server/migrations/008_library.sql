-- async_tts_try: the user's acknowledgement of a failed long-speech task
-- (tts_list/update_tts_try_failed), so the page stops showing the failure. A row of its own
-- rather than a column of video_tasks: only speech tasks have it, and only when they failed.
CREATE TABLE speech_try_acks (
  task_id          uuid        PRIMARY KEY REFERENCES video_tasks (id) ON DELETE CASCADE,
  user_id          integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  acknowledged_at  timestamptz NOT NULL DEFAULT now()
);
