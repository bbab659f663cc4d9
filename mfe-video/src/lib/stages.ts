import type { WorkResult } from '@kol/shared-sdk';

/** Chinese names of the task stages, as the server names them in its messages. */
const STAGE_NAMES: Record<string, string> = {
  script: '文案',
  shots: '分镜',
  roles: '角色',
  images: '画面',
  voice: '配音',
  captions: '字幕',
  music: '音乐',
  compose: '合成',
  merge: '合成',
  speech: '配音',
};

export function stageName(stage: string): string {
  return STAGE_NAMES[stage] ?? (stage || '排队');
}

/** `95` -> `约 1分35秒`; null (unknown) -> ''. */
export function formatEta(seconds: number | null): string {
  if (seconds === null || seconds < 0) return '';
  if (seconds < 60) return `约 ${Math.max(1, Math.round(seconds))} 秒`;
  return `约 ${Math.floor(seconds / 60)}分${Math.round(seconds % 60)}秒`;
}

/**
 * Why a task failed, naming the stage. The server's message names it already
 * (「画面」阶段失败（第 3 个分镜，服务：…）：…); one that does not gets the stage put in front.
 */
export function failureText(result: WorkResult): string {
  const stage = result.stages.find((item) => item.state === 'failed');
  const text = stage?.error ?? result.error ?? '未知原因';
  if (text.includes('阶段失败')) return text;
  return `${stage ? `「${stageName(stage.name)}」阶段失败：` : '生成失败：'}${text}`;
}
