import { stageFailureText, type WorkResult } from '@kol/shared-sdk';

/** `95` -> `约 1分35秒`; null (unknown) -> ''. */
export function formatEta(seconds: number | null): string {
  if (seconds === null || seconds < 0) return '';
  if (seconds < 60) return `约 ${Math.max(1, Math.round(seconds))} 秒`;
  return `约 ${Math.floor(seconds / 60)}分${Math.round(seconds % 60)}秒`;
}

/** Why a task failed, naming the stage (the SDK's wording). */
export function failureText(result: WorkResult): string {
  const stage = result.stages.find((item) => item.state === 'failed');
  return stageFailureText(stage?.name ?? null, stage?.error ?? result.error);
}
