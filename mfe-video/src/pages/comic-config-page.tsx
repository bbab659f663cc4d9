import { ComicConfigStep } from '../flows/comic/steps/config-step';

/** `/video/config`, `/video/configuration` 视频配置: the comic clip's first step. */
export function ComicConfigPage() {
  return <ComicConfigStep />;
}
