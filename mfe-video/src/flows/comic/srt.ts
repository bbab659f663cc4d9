import type { SpeechEstimateOptions } from '@kol/shared-sdk';
import { estimateShotMs } from './shots';

/**
 * The caption page's shots are remembered as an SRT (`KOL_SRT_CONTENT`, spec section 3): one cue
 * a shot, timed by the estimated narration, so a reload restores them and the same text can be
 * downloaded as a draft subtitle file.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function srtTime(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)},${pad(ms % 1000, 3)}`;
}

export function captionsToSrt(
  captions: readonly string[],
  voice: SpeechEstimateOptions = {},
): string {
  let at = 0;
  return captions
    .map((caption, i) => {
      const start = at;
      at += estimateShotMs(caption, voice);
      return `${i + 1}\n${srtTime(start)} --> ${srtTime(at)}\n${caption}\n`;
    })
    .join('\n');
}

/** The captions of an SRT, in order; a cue's lines join into one caption. */
export function srtToCaptions(srt: string): string[] {
  return srt
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((block) => {
      const lines = block.split('\n').filter((line) => line.trim() !== '');
      const timing = lines.findIndex((line) => line.includes('-->'));
      return timing === -1 ? '' : lines.slice(timing + 1).join('');
    })
    .filter((caption) => caption.trim() !== '');
}
