import { useEffect, useMemo, useState } from 'react';
import { ttsAudition, type WorkDetail, errorMessage } from '@kol/shared-sdk';
import { speakerVoices, type SpeakerVoice } from '../../../lib/anime-script';

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
  /** What is spoken and how: a clip is reused while none of it changes. */
  key: string;
  text: string;
  voice: SpeakerVoice | null;
  speed: number;
}

/**
 * Each shot's line spoken in its speaker's voice before the render (`tts_audition`, one shot
 * after another): the clip to play and its length, which is the shot's timing. The voices are
 * the work's: each character's chosen voice, the narrator's the work's voice, at the work's
 * speed with the render's variation for speakers sharing a voice.
 */
export function useShotVoices(work: WorkDetail | null): Record<number, ShotVoice> {
  const [clips, setClips] = useState<Record<string, Omit<ShotVoice, 'voice'>>>({});

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
        key: `${voice?.voiceId ?? ''}|${rate}|${text}`,
        text,
        voice,
        speed: rate,
      };
    });
  }, [work]);

  useEffect(() => {
    let live = true;
    (async () => {
      for (const item of plan) {
        if (!live) return;
        if (!item.voice) continue;
        const voiceId = item.voice.voiceId;
        let clip: Omit<ShotVoice, 'voice'>;
        try {
          const spoken = await ttsAudition({ text: item.text, voiceId, speed: item.speed });
          clip = {
            state: 'done',
            audioUrl: spoken.audioUrl,
            durationMs: spoken.durationMs,
            error: null,
          };
        } catch (reason) {
          clip = {
            state: 'failed',
            audioUrl: '',
            durationMs: 0,
            error: `配音试听失败：${errorMessage(reason)}`,
          };
        }
        if (live) setClips((all) => ({ ...all, [item.key]: clip }));
      }
    })();
    return () => {
      live = false;
    };
  }, [plan]);

  return Object.fromEntries(
    plan.map((item): [number, ShotVoice] => {
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
      const clip = clips[item.key];
      return [
        item.index,
        clip
          ? { voice: item.voice, ...clip }
          : { voice: item.voice, state: 'waiting', audioUrl: '', durationMs: 0, error: null },
      ];
    }),
  );
}
