import {
  ProjectType,
  estimateDialogueLinesMs,
  estimateDialogueMs,
  defaultVoiceIds,
  speakerGenders,
  type Gender,
  type Voice,
  type VideoSettings,
  type WorkDetail,
} from '@kol/shared-sdk';
import { splitSentences } from '@kol/shared-sdk/text';
import { savedWorkOf, type WithSaved } from '../../flow-kit/work-edits';
import { operaSession, type OperaDraft, type OperaDraftScene } from './draft';

/**
 * The real-person short drama's (type 8) flow state between its pages, kept in the session value
 * `KOL_OPERA_DRAFT` so a reload on any step loses nothing. The work travels in the address
 * (`?workId=12`; the path names the type). The work's text holds the script as 「角色：台词」
 * lines, a blank line between scenes, so a fresh tab rebuilds the draft from the server.
 */

export const OPERA_TYPE = ProjectType.realOpera;
export const OPERA_LABEL = '真人短剧';

/** The real-person drama's steps, in order. */
export const OPERA_STEPS = ['视频配置', '剧本台词', '角色配音', '场景素材', '生成'] as const;

/** The contract's limits of a scene (`OperaScene` in the SDK): checked here before a save. */
export const MAX_SCENES = 100;
export const MAX_LINES_PER_SCENE = 50;
export const MAX_SPEAKER_CHARS = 32;
export const MAX_LINE_CHARS = 500;

export type OperaSettings = OperaDraft['settings'];

/** The draft with the work it was last read or saved as (the base of the next save over it). */
export type KeptOperaDraft = WithSaved<OperaDraft>;

/** Portrait, classic captions, normal speed; no music chosen lets the server pick its default. */
export const DEFAULT_OPERA_SETTINGS: OperaSettings = {
  aspect: '9:16',
  captionStyle: 'classic',
  speed: 1,
};

/** The query of every page of the flow once the work exists. */
export function operaQuery(workId: number | null): string {
  return workId === null ? '' : `?workId=${workId}`;
}

let sequence = 0;
/** A key for a new scene or line, unique in this tab and unlikely to meet a stored one. */
export function newKey(): string {
  sequence += 1;
  return `${Date.now().toString(36)}-${sequence.toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}

export type OperaLine = OperaDraftScene['lines'][number];

export function newLine(speaker = '', text = ''): OperaLine {
  return { key: newKey(), speaker, text };
}

export function newScene(lines: OperaLine[] = [newLine()]): OperaDraftScene {
  return { key: newKey(), mediaUrl: '', mediaKind: '', mediaName: '', lines };
}

export function emptyDraft(settings: OperaSettings = DEFAULT_OPERA_SETTINGS): OperaDraft {
  return { workId: null, title: '', settings, scenes: [newScene()] };
}

export const operaStore = {
  draft: (): KeptOperaDraft | null => operaSession.get('operaDraft') as KeptOperaDraft | null,
  setDraft: (draft: KeptOperaDraft) => operaSession.set('operaDraft', draft),
};

/**
 * The draft a page opens with, or null when it must be read from the work on the server (a
 * fresh tab, or the session holds another drama). Without a work in the address it is a new
 * drama: an unsaved draft is taken up again, a saved one leaves only its settings behind.
 */
export function draftFor(
  workId: number | null,
  stored: KeptOperaDraft | null,
): KeptOperaDraft | null {
  if (workId === null) {
    if (stored && stored.workId === null) return stored;
    return emptyDraft(stored ? { ...DEFAULT_OPERA_SETTINGS, ...stored.settings } : undefined);
  }
  return stored && stored.workId === workId ? stored : null;
}

/** One line of the script as it is spoken and captioned: 「角色：台词」. */
export function lineCaption(line: Pick<OperaLine, 'speaker' | 'text'>): string {
  return `${line.speaker.trim()}：${oneLine(line.text)}`;
}

const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();

/** The script as the work's text: 「角色：台词」 a line, a blank line between scenes. */
export function scriptText(scenes: readonly OperaDraftScene[]): string {
  return scenes
    .map((scene) =>
      scene.lines
        .filter((line) => line.speaker.trim() || line.text.trim())
        .map(lineCaption)
        .join('\n'),
    )
    .filter((block) => block !== '')
    .join('\n\n');
}

const SCRIPT_LINE = new RegExp(`^(.{1,${MAX_SPEAKER_CHARS}}?)[：:](.+)$`);

/** The scenes of a work's text written by scriptText (other lines, e.g. a title, are not lines). */
export function parseScript(text: string): OperaDraftScene[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split('\n')
        .map((row) => SCRIPT_LINE.exec(row.trim()))
        .filter((match): match is RegExpExecArray => match !== null)
        .map((match) => newLine((match[1] ?? '').trim(), (match[2] ?? '').trim())),
    )
    .filter((lines) => lines.length > 0)
    .map((lines) => newScene(lines));
}

/** What a stored media URL is, by its extension (the server names uploads by their kind). */
export function mediaKindOf(url: string): OperaDraftScene['mediaKind'] {
  if (!url) return '';
  return /\.(jpe?g|png|webp)$/i.test(url) ? 'image' : 'video';
}

/**
 * The draft of a work read from the server: the script from its text (saved at every step),
 * each scene's clip or photo from the saved scenes, by position; the work as read is the base of
 * the next save over it.
 */
export function draftOfWork(work: WorkDetail): KeptOperaDraft {
  const { settings } = work;
  const saved = settings.scenes ?? [];
  const parsed = parseScript(work.text);
  const scenes = parsed.length > 0 ? parsed : [newScene()];
  return {
    workId: work.workId,
    title: work.title,
    settings: {
      aspect: settings.aspect,
      captionStyle: settings.captionStyle ?? DEFAULT_OPERA_SETTINGS.captionStyle,
      speed: settings.speed ?? 1,
      ...(settings.musicId !== undefined ? { musicId: settings.musicId } : {}),
      ...(settings.roleVoices ? { roleVoices: settings.roleVoices } : {}),
    },
    scenes: scenes.map((scene, i) => {
      const mediaUrl = saved[i]?.mediaUrl ?? '';
      return { ...scene, mediaUrl, mediaKind: mediaKindOf(mediaUrl), mediaName: '' };
    }),
    saved: savedWorkOf(work),
  };
}

/** The characters who speak, in the order they first speak. */
export function speakersOf(scenes: readonly OperaDraftScene[]): string[] {
  const seen = new Set<string>();
  for (const scene of scenes) {
    for (const line of scene.lines) {
      const speaker = line.speaker.trim();
      if (speaker) seen.add(speaker);
    }
  }
  return [...seen];
}

/** Why the script cannot be spoken, in Chinese, naming the scene and line; null when it can. */
export function scriptProblem(scenes: readonly OperaDraftScene[]): string | null {
  if (scenes.length === 0) return '请先添加场景：每个场景写上角色和台词';
  if (scenes.length > MAX_SCENES) {
    return `场景不能超过 ${MAX_SCENES} 个（当前 ${scenes.length} 个）`;
  }
  for (const [i, scene] of scenes.entries()) {
    const where = `第 ${i + 1} 个场景`;
    if (scene.lines.length === 0) return `${where}还没有台词，请添加台词或删除这个场景`;
    if (scene.lines.length > MAX_LINES_PER_SCENE) {
      return `${where}的台词不能超过 ${MAX_LINES_PER_SCENE} 句（当前 ${scene.lines.length} 句）`;
    }
    for (const [j, line] of scene.lines.entries()) {
      const at = `${where}第 ${j + 1} 句台词`;
      const speaker = line.speaker.trim();
      if (!speaker) return `${at}缺少「角色」`;
      if (speaker.length > MAX_SPEAKER_CHARS) {
        return `${at}的角色名不能超过 ${MAX_SPEAKER_CHARS} 个字`;
      }
      if (/[：:]/.test(speaker)) return `${at}的角色名不能含有冒号`;
      if (!line.text.trim()) return `${at}还没有填写`;
      if (line.text.length > MAX_LINE_CHARS) {
        return `${at}不能超过 ${MAX_LINE_CHARS} 个字（当前 ${line.text.length} 字），请拆成几句`;
      }
      if (splitSentences(line.text).length === 0) return `${at}没有可朗读的文字`;
    }
  }
  return null;
}

/** The first scene without its clip or photo, in Chinese; null when every scene has one. */
export function mediaProblem(scenes: readonly OperaDraftScene[]): string | null {
  const missing = scenes.findIndex((scene) => !scene.mediaUrl);
  return missing === -1 ? null : `第 ${missing + 1} 个场景还没有上传视频或照片`;
}

/**
 * The estimated length of each scene of the drama and of the whole (the SDK's speech model):
 * every line spoken by its character's voice (the one chosen on the cast page, else the one the
 * server will assign: the default of the gender the script gives them) at the speed.
 */
export function estimateScenesMs(
  scenes: readonly OperaDraftScene[],
  settings: { speed?: number; roleVoices?: Record<string, string> },
): { scenes: number[]; totalMs: number } {
  const lines = scenes.flatMap((scene) =>
    scene.lines.map((line) => ({
      speaker: line.speaker.trim(),
      text: line.text,
      voiceId: settings.roleVoices?.[line.speaker.trim()] ?? null,
    })),
  );
  const options = { speed: settings.speed ?? 1, genderOf: scriptGenders(scenes) };
  const perLine = estimateDialogueLinesMs(lines, options);
  let at = 0;
  const perScene = scenes.map((scene) => {
    const ms = perLine.slice(at, at + scene.lines.length).reduce((sum, x) => sum + x, 0);
    at += scene.lines.length;
    return ms;
  });
  // The whole drama: no pause after its last sentence.
  return { scenes: perScene, totalMs: estimateDialogueMs(lines, options) };
}

/**
 * A voice for every speaker without a known one, as the server assigns them (the SDK's
 * defaultVoices: the least used voice of the speaker's gender, female and male alternating
 * only for an unknown gender), so the page shows what would be spoken and two characters never
 * start out with the same voice.
 */
export function assignDefaultVoices(
  speakers: readonly string[],
  chosen: Readonly<Record<string, string>>,
  voices: readonly Voice[],
  genderOf: (speaker: string) => Gender | null = () => null,
): Record<string, string> {
  const zh = voices.filter((voice) => voice.language === 'zh');
  const known = new Set(voices.map((voice) => voice.voiceId));
  return defaultVoiceIds(speakers, chosen, zh, genderOf, (voiceId) => known.has(voiceId));
}

/**
 * The gender of each character, from what the script says of them (他/她, 公子, 姑娘…), as the
 * server reads it (the SDK's speakerGenders).
 */
export function scriptGenders(
  scenes: readonly OperaDraftScene[],
): (speaker: string) => Gender | null {
  return speakerGenders(speakersOf(scenes), [], scriptText(scenes));
}

/**
 * The settings a work is saved with. The scenes go only once every one has its clip or photo
 * (the contract refuses a scene without one); the voices only of characters who still speak.
 */
export function operaSettingsToSave(draft: OperaDraft): VideoSettings {
  const speakers = speakersOf(draft.scenes);
  const roleVoices = Object.fromEntries(
    Object.entries(draft.settings.roleVoices ?? {}).filter(([name]) => speakers.includes(name)),
  );
  const complete =
    draft.scenes.length > 0 && mediaProblem(draft.scenes) === null && !scriptProblem(draft.scenes);
  const settings: OperaSettings = { ...draft.settings };
  delete settings.roleVoices;
  return {
    ...settings,
    ...(Object.keys(roleVoices).length > 0 ? { roleVoices } : {}),
    ...(complete
      ? {
          scenes: draft.scenes.map((scene) => ({
            mediaUrl: scene.mediaUrl,
            lines: scene.lines.map((line) => ({
              speaker: line.speaker.trim(),
              text: oneLine(line.text),
            })),
          })),
        }
      : {}),
  };
}

/** A title from the script when the creator gives none: its first line, at most 20 characters. */
export function operaTitleOf(draft: OperaDraft): string {
  const first = draft.scenes[0]?.lines[0];
  const line = first && first.text.trim() ? lineCaption(first) : '';
  if (!line) return '未命名短剧';
  return line.length > 20 ? `${line.slice(0, 20)}…` : line;
}
