import { useCallback, useEffect, useState } from 'react';
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
import { SHORT_SPEECH_CHARS } from '../validation';

/** How often a long speech task is asked for. */
export const SPEECH_POLL_MS = 1500;

export interface SpeechOutput {
  audioUrl: string;
  /** The same speech as WAV, when the task made one beside the MP3. */
  wavUrl: string;
  durationMs: number;
  engine: string;
  note: string;
}

/**
 * Speaking a text: a short one at once (`tts_try`), a long one as a task (`async_tts_try`,
 * followed with `async_tts_try_result`). The task's id is kept in the address (`?taskId=`), so a
 * reload goes on following it.
 */
export function useSpeech() {
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const taskId = params.get('taskId');
  const [output, setOutput] = useState<SpeechOutput | null>(null);
  const [task, setTask] = useState<AsyncSpeechResult | null>(null);
  const [speaking, setSpeaking] = useState(false);
  const [startedAt, setStartedAt] = useState(() => Date.now());
  const [error, setError] = useState<string | null>(null);

  const follow = useCallback(
    (id: string | null) => {
      const next = new URLSearchParams(params);
      if (id) next.set('taskId', id);
      else next.delete('taskId');
      setParams(next, { replace: true });
    },
    [params, setParams],
  );

  useEffect(() => {
    if (!taskId) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () => {
      getAsyncTtsTryResult({ taskId }).then(
        (answer) => {
          if (!live) return;
          setTask(answer);
          setError(null);
          if (answer.state === 'succeeded') {
            setOutput({
              audioUrl: answer.audioUrl,
              wavUrl: answer.wavUrl,
              durationMs: answer.durationMs,
              engine: answer.engine,
              note: answer.note,
            });
          } else if (answer.state === 'queued' || answer.state === 'running') {
            timer = setTimeout(poll, SPEECH_POLL_MS);
          }
        },
        (reason: unknown) => {
          if (live) setError(errorMessage(reason));
        },
      );
    };
    poll();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [taskId]);

  const speak = async (text: string, voiceId: string, speed: number) => {
    setSpeaking(true);
    setOutput(null);
    setTask(null);
    setError(null);
    try {
      if (text.length <= SHORT_SPEECH_CHARS) {
        follow(null);
        const clip = await ttsTry({ text, voiceId, speed });
        setOutput({
          audioUrl: clip.audioUrl,
          wavUrl: '',
          durationMs: clip.durationMs,
          engine: '',
          note: '',
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
      setTask(null);
    } catch (reason) {
      void message.error(errorMessage(reason));
    }
  };

  const running =
    task?.state === 'queued' || task?.state === 'running' || (taskId !== null && !task && !error);
  return { speak, speaking, running, task, output, error, startedAt, acknowledge };
}
