import { PageFrame } from '../components/page-frame';
import { TasksInProgress } from '../features/video-hub/components/tasks-in-progress';
import { SeriesEntry } from '../features/video-hub/components/series-entry';
import { VideoTypeCards } from '../features/video-hub/components/video-type-cards';

/**
 * `/video` 视频合成: the video types the user may make with their counts, and the videos being
 * made. The address's `?type=composite|tools` is the host menu's to read; this page keeps it.
 */
export function VideoHubPage() {
  return (
    <PageFrame title="视频合成">
      <TasksInProgress />
      <VideoTypeCards />
      <SeriesEntry />
    </PageFrame>
  );
}
