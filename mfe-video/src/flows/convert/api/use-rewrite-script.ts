import { useCallback } from 'react';
import { generateText, getGenResult, type TextResult } from '@kol/shared-sdk';
import { useAwaitedTask } from '../../../hooks/use-awaited-task';

/** How often the rewriting task is asked for while it runs. */
const POLL_MS = 1000;
/** GenerateTextBody.length's bounds. */
const MIN_REWRITE_LENGTH = 50;
const MAX_REWRITE_LENGTH = 10_000;

/** The query key of a rewriting task (`gen_result`). */
const rewriteTaskKey = (taskId: string) => ['gen-result', taskId] as const;

const fetchResult = (taskId: string, signal: AbortSignal) => getGenResult({ taskId }, { signal });
const hasEnded = (result: TextResult) => result.state !== 'queued' && result.state !== 'running';

/**
 * The script rewritten as a new narration by the writing engine (`generate`, mode rewrite, then
 * `gen_result` until it ends): the chat model when one is configured, else the local writer;
 * the answer names which one wrote it. A run that writes nothing fails on the server with its
 * reason (never an empty text). Leaving the page stops the following.
 */
export function useRewriteScript() {
  const follow = useAwaitedTask<TextResult>({
    queryKey: rewriteTaskKey,
    fetch: fetchResult,
    ended: hasEnded,
    intervalMs: POLL_MS,
  });

  return useCallback(
    async (script: string): Promise<{ text: string; engine: string }> => {
      // As long as the script: a model's answer is bounded by the asked length (600 by default).
      const length = Math.min(MAX_REWRITE_LENGTH, Math.max(MIN_REWRITE_LENGTH, script.length));
      const { taskId } = await generateText({
        sourceText: script,
        kind: 'narration',
        mode: 'rewrite',
        length,
      });
      const result = await follow(taskId);
      if (result.state !== 'succeeded') {
        throw new Error(`改写失败：${result.error ?? '写作服务没有给出原因'}`);
      }
      return { text: result.text, engine: result.engine };
    },
    [follow],
  );
}
