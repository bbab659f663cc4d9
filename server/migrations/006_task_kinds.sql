-- Tasks are not only whole videos: a merge of cut-video segments, one image, one long speech
-- run on the same durable runner. `kind` picks the pipeline together with the project type;
-- `input` holds what the task was asked (an image prompt, a text to speak), since such a task
-- may have no work (work_id NULL).
ALTER TABLE video_tasks ADD COLUMN kind text NOT NULL DEFAULT 'video';
ALTER TABLE video_tasks ADD COLUMN input jsonb NOT NULL DEFAULT '{}';
ALTER TABLE video_tasks ALTER COLUMN work_id DROP NOT NULL;

-- One heavy task (a video or a merge) at a time per work; images and speech may run beside it.
DROP INDEX video_tasks_one_active_idx;
CREATE UNIQUE INDEX video_tasks_one_active_idx ON video_tasks (work_id)
  WHERE state IN ('queued', 'running') AND kind IN ('video', 'merge');
CREATE INDEX video_tasks_user_kind_idx ON video_tasks (user_id, kind, created_at DESC);
