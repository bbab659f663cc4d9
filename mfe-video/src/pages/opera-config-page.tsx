import { OperaConfigStep } from '../flows/drama/steps/config-step';

/** `/video/operaConfig` 真人短剧 · 视频配置: the drama's first step. */
export function OperaConfigPage() {
  return <OperaConfigStep />;
}
