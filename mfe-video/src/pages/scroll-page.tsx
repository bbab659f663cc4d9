import { ScrollStep } from '../flows/scroll/steps/scroll-step';

/** `/video/scroll` 滚屏视频: the scrolling video, on one page. */
export function ScrollPage() {
  return <ScrollStep />;
}
