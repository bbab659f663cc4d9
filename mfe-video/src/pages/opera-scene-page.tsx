import { OperaSceneStep } from '../flows/drama/steps/scene-step';

/** `/video/operaScene` 真人短剧 · 场景素材: a clip or photo per scene, then 生成视频. */
export function OperaScenePage() {
  return <OperaSceneStep />;
}
