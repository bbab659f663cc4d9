import {
  ANIME_NARRATOR,
  VOICE_VARIANT_SPEEDS,
  animeChosenVoices,
  estimateDialogueMs,
  speakerGenders,
  type AnimeCamera,
  type Gender,
  type VideoSettings,
} from '@kol/shared-sdk';

/**
 * The anime short's script as its pages edit it: one line per speaker turn, the narrator's
 * included. Saved as the work's text, one 「角色：台词」 per line, which is the form the
 * server's script stage reads as written (`server/src/video/pipelines/anime/script.ts` `parseScript`).
 */

export interface ScriptLine {
  /** A key of the page's, stable while lines move (not saved). */
  key: string;
  speaker: string;
  text: string;
}

/** Longest speaker name the server takes. */
export const MAX_SPEAKER_CHARS = 12;
/** Longest line the server takes in a script. */
export const MAX_LINE_CHARS = 200;
/**
 * A line longer than this makes a shot whose one picture stays on screen too long and whose
 * caption no longer fits one short line at a time: the final check warns about it (the comic
 * clip's shots keep to the same 60 characters).
 */
export const LONG_LINE_CHARS = 60;
/** A shot whose spoken line lasts longer than this is warned about in the final check. */
export const LONG_SHOT_MS = 12_000;

let counter = 0;
export const newKey = () => `line-${Date.now().toString(36)}-${(counter++).toString(36)}`;

const SPEAKER_LINE = /^([^\s：:，。！？"“”]{1,12})[：:]\s*(.+)$/;

/** The lines of a saved script; a line without a speaker is the narrator's. */
export function parseScriptText(text: string): ScriptLine[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const match = SPEAKER_LINE.exec(line);
      return match
        ? { key: newKey(), speaker: match[1] ?? ANIME_NARRATOR, text: (match[2] ?? '').trim() }
        : { key: newKey(), speaker: ANIME_NARRATOR, text: line };
    });
}

/** The work's text of a script: every line with its speaker, the narrator's too. */
export function scriptText(lines: readonly Pick<ScriptLine, 'speaker' | 'text'>[]): string {
  return lines.map((line) => `${line.speaker.trim()}：${line.text.trim()}`).join('\n');
}

/** Why a script cannot be saved, in Chinese, or null when it can. */
export function scriptProblem(
  lines: readonly Pick<ScriptLine, 'speaker' | 'text'>[],
): string | null {
  if (lines.length === 0) return '剧本还没有台词，请至少添加一行';
  for (const [i, line] of lines.entries()) {
    const speaker = line.speaker.trim();
    if (!speaker) return `第 ${i + 1} 行没有选择角色`;
    if (speaker.length > MAX_SPEAKER_CHARS) {
      return `第 ${i + 1} 行的角色名「${speaker}」超过 ${MAX_SPEAKER_CHARS} 个字`;
    }
    if (/[\s：:，。！？"“”]/.test(speaker)) {
      return `第 ${i + 1} 行的角色名「${speaker}」不能含空格或标点`;
    }
    if (!/[\p{L}\p{N}]/u.test(line.text)) return `第 ${i + 1} 行的台词为空，请填写或删除这一行`;
    if (line.text.includes('\n')) return `第 ${i + 1} 行的台词不能换行，请拆成两行`;
    if (line.text.length > MAX_LINE_CHARS) {
      return `第 ${i + 1} 行的台词超过 ${MAX_LINE_CHARS} 字（当前 ${line.text.length} 字），请拆成几行`;
    }
  }
  return null;
}

/** The speakers of a script in order of first appearance, with how many lines each has. */
export function speakersOf(
  lines: readonly Pick<ScriptLine, 'speaker'>[],
): Array<{ name: string; lines: number }> {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const name = line.speaker.trim();
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, count]) => ({ name, lines: count }));
}

/** The characters of a script: its speakers but the narrator. */
export const charactersOf = (lines: readonly Pick<ScriptLine, 'speaker'>[]) =>
  speakersOf(lines).filter((speaker) => speaker.name !== ANIME_NARRATOR);

/** A shot's caption: the narrator's line alone, a character's after their name. */
export const captionOf = (speaker: string, line: string) =>
  speaker === ANIME_NARRATOR ? line : `${speaker}：${line}`;

/** The picture prompt the storyboard writes for a shot (the server's, for the same fields). */
export function autoPrompt(shot: {
  scene: string;
  camera: AnimeCamera;
  speaker: string;
  line: string;
}): string {
  const who = shot.speaker === ANIME_NARRATOR ? '' : `，${shot.speaker}`;
  return `${shot.scene}，${shot.camera}${who}：${shot.line}`;
}

export interface SpeakerVoice {
  voiceId: string;
  speedFactor: number;
}

/**
 * The voice each speaker is rendered with: the character's chosen voice, the narrator's the
 * work's voice (the SDK's animeChosenVoices), in order of first appearance with the server's
 * shared-voice speeds: the second speaker on a voice talks a little faster, the third slower,
 * so no two characters sound the same. A speaker with no voice chosen is left out (the server
 * picks one for it).
 */
export function speakerVoices(
  speakers: readonly string[],
  roleVoices: Readonly<Record<string, string>>,
  narratorVoice: string | undefined,
): Record<string, SpeakerVoice> {
  const chosen = animeChosenVoices({ roleVoices, voiceId: narratorVoice });
  const uses = new Map<string, number>();
  const result: Record<string, SpeakerVoice> = {};
  for (const speaker of speakers) {
    const voiceId = chosen[speaker];
    if (!voiceId) continue;
    const n = uses.get(voiceId) ?? 0;
    uses.set(voiceId, n + 1);
    result[speaker] = {
      voiceId,
      speedFactor: VOICE_VARIANT_SPEEDS[n % VOICE_VARIANT_SPEEDS.length] ?? 1,
    };
  }
  return result;
}

/**
 * The gender of each character, from what the script says of them, as the server reads it (the
 * SDK's speakerGenders: the narrator is nobody).
 */
export function scriptGenders(lines: readonly ScriptLine[]): (speaker: string) => Gender | null {
  const text = lines.map((line) => `${line.speaker}：${line.text}`).join('\n');
  return speakerGenders([...new Set(lines.map((line) => line.speaker))], [], text);
}

/**
 * The estimated length of the short (the SDK's speech model): every line in its speaker's
 * voice as the server assigns them (the chosen ones, the narrator the work's voice, the others
 * the default of the gender the script gives them) at the work's speed, with the pauses between.
 */
export function estimateScriptMs(
  lines: readonly ScriptLine[],
  settings: Pick<VideoSettings, 'roleVoices' | 'voiceId' | 'speed'>,
): number {
  const chosen = animeChosenVoices(settings);
  return estimateDialogueMs(
    lines.map((line) => {
      const speaker = line.speaker.trim();
      return { speaker, text: line.text, voiceId: chosen[speaker] ?? null };
    }),
    { speed: settings.speed ?? 1, genderOf: scriptGenders(lines) },
  );
}
