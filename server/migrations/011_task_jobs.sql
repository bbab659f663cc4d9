-- The pg-boss job that runs a task, written in the same transaction as the task (and the spent
-- count), so a task that was answered "started" always has a job; the runner's sweep finds a
-- task whose job is gone (or held by a dead worker), completes the stale job and enqueues anew.
ALTER TABLE video_tasks ADD COLUMN job_id uuid;
