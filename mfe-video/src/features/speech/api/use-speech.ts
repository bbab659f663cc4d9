import { useCallback, useState } from 'react';
import { App } from 'antd';
import { useSearchParams } from '@kol/shared-sdk/router';
import {
  asyncTtsTry,
  getAsyncTtsTryResult,
  ttsTry,
  updateTtsTryFailed,
  type AsyncSpeechResult,
  errorMessage,
} from '@kol/shared-sdk';
import { useTask } from '@kol/shared-sdk/state';
import { SHORT_SPEECH_CHARS } from '../validation';

/** How often a long speech task is asked for. */
export const SPEECH_POLL_MS = 1500;

export interface SpeechOutput {
  /** What the player plays (the short speech's WAV, the long one's MP3). */
  audioUrl: string;
  /** The speech to download as MP3 and as WAV: short and long speech alike offer both. */
  mp3Url: string;
  wavUrl: string;
  durationMs: number;
  /** The voice asked for, named plainly by the result. */
  voiceId: string;
  /** The engine that spoke ('' when not told); a note when an offline voice stood in. */
  engine: string;
  note: string;
}

/** The query key of a long speech's task. */
export const speechTaskKey = (taskId: string | null) => ['speech-task', taskId] as const;

const isRunning = (task: AsyncSpeechResult) => task.state === 'queued' || task.state === 'running';

/** What a finished speech task gives to play and download. */
const outputOf = (task: AsyncSpeechResult): SpeechOutput => ({
  audioUrl: task.audioUrl,
  mp3Url: task.audioUrl,
  wavUrl: task.wavUrl,
  durationMs: task.durationMs,
  voiceId: task.voiceId,
  engine: task.engine,
  note: task.note,
});

/**
 * Speaking a text: a short one at once (`tts_try`), a long one as a task (`async_tts_try`,
 * followed with `async_tts_try_result`). The task's id is kept in the address (`?taskId=`), so a
 * reload goes on following it.
 */
export function useSpeech() {
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const taskId = params.get('taskId');
  // A short text's speech (the call answers it); a long one's comes from its task.
  const [clip, setClip] = useState<SpeechOutput | null>(null);
  const [speaking, setSpeaking] = useState(false);
  const [startedAt, setStartedAt] = useState(() => Date.now());
  const followed = useTask<AsyncSpeechResult>({
    queryKey: speechTaskKey(taskId),
    fetch: (signal) => getAsyncTtsTryResult({ taskId: taskId as string }, { signal }),
    ended: (answer) => !isRunning(answer),
    intervalMs: SPEECH_POLL_MS,
    enabled: taskId !== null,
  });
  const task = taskId !== null ? (followed.data ?? null) : null;
  const error = taskId !== null ? followed.error : null;
  const output = clip ?? (task?.state === 'succeeded' ? outputOf(task) : null);

  const follow = useCallback(
    (id: string | null) => {
      const next = new URLSearchParams(params);
      if (id) next.set('taskId', id);
      else next.delete('taskId');
      setParams(next, { replace: true });
    },
    [params, setParams],
  );

  const speak = async (text: string, voiceId: string, speed: number) => {
    setSpeaking(true);
    setClip(null);
    // What the last task said (its speech, its failure) goes with it.
    follow(null);
    try {
      if (text.length <= SHORT_SPEECH_CHARS) {
        const answer = await ttsTry({ text, voiceId, speed });
        setClip({
          audioUrl: answer.audioUrl,
          mp3Url: answer.mp3Url,
          wavUrl: answer.audioUrl,
          durationMs: answer.durationMs,
          voiceId,
          engine: answer.engine ?? '',
          note: answer.note ?? '',
        });
      } else {
        const { taskId: id } = await asyncTtsTry({ text, voiceId, speed });
        setStartedAt(Date.now());
        follow(id);
      }
    } catch (reason) {
      void message.error(errorMessage(reason));
    } finally {
      setSpeaking(false);
    }
  };

  /** The user has read why the task failed (`update_tts_try_failed`). */
  const acknowledge = async () => {
    if (!taskId) return;
    try {
      await updateTtsTryFailed({ taskId });
      follow(null);
    } catch (reason) {
      void message.error(errorMessage(reason));
    }
  };

  const running =
    task?.state === 'queued' || task?.state === 'running' || (taskId !== null && !task && !error);
  return { speak, speaking, running, task, output, error, startedAt, acknowledge };
}
