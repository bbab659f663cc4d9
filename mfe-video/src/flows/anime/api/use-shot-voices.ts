import { useMemo, useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { ttsAudition, type WorkDetail, errorMessage } from '@kol/shared-sdk';
import { serialQueue } from '../../../flow-kit/work-edits';
import { speakerVoices, type SpeakerVoice } from '../anime-script';

export interface ShotVoice {
  /** The voice the render speaks the shot with; null when the server will choose one. */
  voice: SpeakerVoice | null;
  state: 'waiting' | 'done' | 'failed';
  audioUrl: string;
  durationMs: number;
  error: string | null;
}

/** The audition call's speed range. */
const clampSpeed = (speed: number) => Math.min(2, Math.max(0.5, Math.round(speed * 100) / 100));

interface Planned {
  index: number;
  text: string;
  voice: SpeakerVoice | null;
  speed: number;
}

/**
 * Each shot's line spoken in its speaker's voice before the render (`tts_audition`, one shot
 * after another, each clip a query of its own): the clip to play and its length, which is the
 * shot's timing. The voices are
 * the work's: each character's chosen voice, the narrator's the work's voice, at the work's
 * speed with the render's variation for speakers sharing a voice.
 */
export function useShotVoices(work: WorkDetail | null): Record<number, ShotVoice> {
  const plan = useMemo((): Planned[] => {
    if (!work) return [];
    const speakers = [...new Set(work.shots.map((shot) => shot.speaker ?? ''))];
    const assigned = speakerVoices(speakers, work.settings.roleVoices ?? {}, work.settings.voiceId);
    const speed = clampSpeed(work.settings.speed ?? 1);
    return work.shots.map((shot) => {
      const voice = assigned[shot.speaker ?? ''] ?? null;
      const text = (shot.line ?? shot.caption).slice(0, 300);
      const rate = voice ? clampSpeed(speed * voice.speedFactor) : speed;
      return {
        index: shot.index,
        text,
        voice,
        speed: rate,
      };
    });
  }, [work]);

  // One clip after another, in the shots' order: each audition is a synthesis on the server.
  const [queue] = useState(serialQueue);
  const clips = useQueries({
    queries: plan.map((item) => ({
      // What is spoken and how: a clip is reused (not asked again) while none of it changes.
      queryKey: ['tts-audition', item.voice?.voiceId ?? null, item.speed, item.text] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        queue(() =>
          ttsAudition(
            { text: item.text, voiceId: item.voice?.voiceId ?? '', speed: item.speed },
            { signal },
          ),
        ),
      enabled: item.voice !== null,
    })),
  });

  return Object.fromEntries(
    plan.map((item, i): [number, ShotVoice] => {
      if (!item.voice) {
        return [
          item.index,
          {
            voice: null,
            state: 'failed',
            audioUrl: '',
            durationMs: 0,
            error: '这个角色没有选择配音，生成时由系统分配',
          },
        ];
      }
      const clip = clips[i];
      if (clip?.data) {
        const { audioUrl, durationMs } = clip.data;
        return [
          item.index,
          { voice: item.voice, state: 'done', audioUrl, durationMs, error: null },
        ];
      }
      if (clip?.error) {
        return [
          item.index,
          {
            voice: item.voice,
            state: 'failed',
            audioUrl: '',
            durationMs: 0,
            error: `配音试听失败：${errorMessage(clip.error)}`,
          },
        ];
      }
      return [
        item.index,
        { voice: item.voice, state: 'waiting', audioUrl: '', durationMs: 0, error: null },
      ];
    }),
  );
}
