import { DedupConfigStep } from '../flows/dedup/steps/config-step';

/** `/video/cutDuplicates/config` 视频去重 · 去重设置: the user's saved de-dup presets. */
export function DedupConfigPage() {
  return <DedupConfigStep />;
}
