import { PromptWordStep } from '../flows/comic/steps/prompt-word-step';

/** `/video/promptWord/:id` 分镜画面: the comic clip's shot pictures, then 生成视频. */
export function PromptWordPage() {
  return <PromptWordStep />;
}
