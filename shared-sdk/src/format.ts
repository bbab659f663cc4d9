import { STAGE_NAMES } from './constants';

/** Times as the pages show them; one format across the host and every remote. */
const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-11-21T20:54:07.239Z` → `2026-11-21 20:54` in the viewer's time zone; other text as is. */
export function formatTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** `images` → `画面`; an unknown stage as is; none yet → `排队`. */
export function stageName(stage: string): string {
  return STAGE_NAMES[stage] ?? (stage || '排队');
}

/**
 * Why a task failed, naming the stage. The server's message names it already
 * (「画面」阶段失败（第 3 个分镜，服务：…）：…); one that does not gets the stage put in front.
 */
export function stageFailureText(failedStage: string | null, error: string | null): string {
  const text = error ?? '未知原因';
  if (text.includes('阶段失败')) return text;
  return `${failedStage ? `「${stageName(failedStage)}」阶段失败：` : '生成失败：'}${text}`;
}

/** A length as the pages show it: `83_400` → `1分23秒`; under a minute `9秒`. */
export function formatDurationMs(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes}分${seconds % 60}秒` : `${seconds}秒`;
}
