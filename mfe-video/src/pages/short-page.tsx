import { ShortScreen } from '../features/short-video/short-screen';

/** `/video/short/:taskId` 视频详情: a finished video. */
export function ShortPage() {
  return <ShortScreen />;
}
