import { Type, type Static } from 'typebox';
import { ANIME_CAMERAS, ANIME_NARRATOR } from '@kol/shared-sdk/contracts';
import { MAX_QUOTED_SHOT_CHARS } from '@kol/shared-sdk/text';
import { splitSentences } from '../../engine/captions';
import { readCast } from '../../../text/cast';
import { SPEECH_AFTER, SPEECH_BEFORE } from '../../../text/speech-words';
import { askJson, type ChatModel } from '../../../providers/chat';

/** The speaker of lines nobody in the story says. */
export const NARRATOR = ANIME_NARRATOR;
/** Who speaks a quotation whose speaker the story neither names nor describes. */
export const UNNAMED_SPEAKER = '路人';

export interface ScriptLine {
  speaker: string;
  text: string;
}

/** Camera sizes of a storyboard, widest first (the words storyboard artists use). */
export const CAMERAS = ANIME_CAMERAS;
export type Camera = (typeof CAMERAS)[number];

export interface StoryboardShot {
  index: number;
  speaker: string;
  line: string;
  camera: Camera;
  scene: string;
  /** What the picture shows: the scene, the camera and who is in it. */
  imagePrompt: string;
}

const SPEAKER_LINE = /^([^\s：:，。！？"“”]{1,12})[：:]\s*(.+)$/;

/**
 * A text already written as a script, one 「角色：台词」 per line (what the caption page
 * saves). Answers null when most lines are not in that form: the text is a story to adapt.
 */
export function parseScript(text: string): ScriptLine[] | null {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length === 0) return null;
  const parsed = lines.map((line) => {
    const match = SPEAKER_LINE.exec(line);
    return match ? { speaker: match[1] ?? NARRATOR, text: (match[2] ?? '').trim() } : null;
  });
  const matched = parsed.filter((line) => line !== null && line.text);
  if (matched.length * 2 < lines.length) return null;
  return parsed.map((line, i) => line ?? { speaker: NARRATOR, text: lines[i] ?? '' });
}

/** How long one line may be before a quotation is spoken as several lines of its speaker. */
const MAX_LINE_CHARS = MAX_QUOTED_SHOT_CHARS;

/**
 * The local adaptation of a story into a script: every quotation becomes a line of the person
 * who says it, as the text understanding reads it (text/cast.ts: the speech verb, the sentence
 * before, the exchange, 他/她), and everything else the narrator's, without the 「某某说：」
 * that introduced the quotation. A quotation stays one line (one shot). Someone the story does
 * not name speaks as what the text calls them (老仆, 店小二), never as a generic 角色.
 * Offline and deterministic.
 */
export function scriptFromStory(text: string): ScriptLine[] {
  const lines: ScriptLine[] = [];
  const push = (speaker: string, piece: string, whole = false) => {
    const pieces = whole && piece.length <= MAX_LINE_CHARS ? [piece] : splitSentences(piece);
    for (const sentence of pieces) {
      const clean = sentence.replace(/^[，,、：:\s]+/u, '').trim();
      if (/[\p{L}\p{N}]/u.test(clean)) lines.push({ speaker, text: clean });
    }
  };
  const { quotations } = readCast(text);
  let at = 0;
  for (const quote of quotations) {
    // The narration before the quote, without its trailing 「某某说：」 or 「，」.
    const before = text.slice(at, quote.start);
    push(NARRATOR, before.replace(SPEECH_BEFORE, '').replace(/[，,：:]\s*$/u, ''));
    push(quote.speaker ?? quote.unnamed ?? UNNAMED_SPEAKER, quote.text, true);
    at = quote.end;
    // The 「，林默说。」 after it is said by the line itself.
    const tail = SPEECH_AFTER.exec(text.slice(at).split(/[。！？\n“「]/u)[0] ?? '');
    if (tail) at += tail[0].length;
  }
  push(NARRATOR, text.slice(at));
  return lines;
}

const PLACE =
  /(?:在|来到|走进|回到|站在|坐在|进了|到了)([\u4e00-\u9fa5]{1,6}?)(?:里|中|上|前|外|内|边|旁|，|。|$)/;

/**
 * The local storyboard: one shot per line; the first shot establishes the scene wide, the
 * narrator's lines alternate full and medium shots, a speaker's lines close-up and
 * extreme close-up; the scene is the last place the text named.
 */
export function storyboardFromScript(lines: ScriptLine[]): StoryboardShot[] {
  let scene = '故事场景';
  let close = 0;
  let wide = 0;
  return lines.map((line, index) => {
    const place = PLACE.exec(line.text)?.[1];
    if (place) scene = place;
    let camera: Camera;
    if (index === 0) camera = '远景';
    else if (line.speaker === NARRATOR) camera = wide++ % 2 === 0 ? '全景' : '中景';
    else camera = close++ % 2 === 0 ? '近景' : '特写';
    return shotOf(index, line, camera, scene);
  });
}

function shotOf(index: number, line: ScriptLine, camera: Camera, scene: string): StoryboardShot {
  const who = line.speaker === NARRATOR ? '' : `，${line.speaker}`;
  return {
    index,
    speaker: line.speaker,
    line: line.text,
    camera,
    scene,
    imagePrompt: `${scene}，${camera}${who}：${line.text}`,
  };
}

const ScriptSchema = Type.Object({
  lines: Type.Array(
    Type.Object({
      speaker: Type.String({ minLength: 1, maxLength: 12 }),
      text: Type.String({ minLength: 1, maxLength: 200 }),
    }),
    { minItems: 1, maxItems: 300 },
  ),
});

const StoryboardSchema = Type.Object({
  shots: Type.Array(
    Type.Object({
      line: Type.Integer({ minimum: 0 }),
      camera: Type.Union(CAMERAS.map((camera) => Type.Literal(camera))),
      scene: Type.String({ minLength: 1, maxLength: 30 }),
    }),
    { minItems: 1, maxItems: 300 },
  ),
});

/** What the creator asked of the adaptation beside the story: a genre, about how many lines. */
export interface ScriptBrief {
  genre?: string;
  lines?: number;
}

/** The model's script of a story (speakers and lines), validated; the caller falls back. */
export async function modelScript(
  model: ChatModel,
  story: string,
  signal: AbortSignal,
  brief: ScriptBrief = {},
): Promise<ScriptLine[]> {
  const asked = [
    brief.genre ? `题材偏${brief.genre}。` : '',
    brief.lines ? `全剧约 ${brief.lines} 行。` : '',
  ].join('');
  const answer: Static<typeof ScriptSchema> = await askJson(
    model,
    {
      system: `你是动漫短剧编剧。把用户的故事或创意改编成剧本：每句台词一个对象，speaker 是说话的角色名，没有人说的叙述用「${NARRATOR}」；台词口语化、简短，按剧情顺序。${asked}格式：{"lines":[{"speaker":"…","text":"…"}]}`,
      user: story.slice(0, 12_000),
      schema: ScriptSchema,
      what: '剧本',
    },
    signal,
  );
  return answer.lines.map((line) => ({ speaker: line.speaker.trim(), text: line.text.trim() }));
}

/** The model's storyboard of a script: a camera and a scene per line, validated. */
export async function modelStoryboard(
  model: ChatModel,
  lines: ScriptLine[],
  signal: AbortSignal,
): Promise<StoryboardShot[]> {
  const answer: Static<typeof StoryboardSchema> = await askJson(
    model,
    {
      system: `你是分镜师。为剧本的每一行设计一个镜头：line 是行号（从 0 开始），camera 取 ${CAMERAS.join('、')} 之一，scene 是场景（地点与时间，10 字以内）。格式：{"shots":[{"line":0,"camera":"远景","scene":"…"}]}`,
      user: lines.map((line, i) => `${i}. ${line.speaker}：${line.text}`).join('\n'),
      schema: StoryboardSchema,
      what: '分镜',
    },
    signal,
  );
  // Every line gets exactly one shot: a line the model skipped keeps the local design.
  const local = storyboardFromScript(lines);
  const byLine = new Map(answer.shots.map((shot) => [shot.line, shot]));
  return local.map((shot, index) => {
    const designed = byLine.get(index);
    const line = lines[index];
    return designed && line ? shotOf(index, line, designed.camera, designed.scene) : shot;
  });
}

/** Engine of an adaptation the model did not write (offline, or it failed). */
export const LOCAL_SCRIPT = '本地改编（离线规则）';
/** Engine of a text that was already a script (the caption page's 「角色：台词」 lines). */
export const USER_SCRIPT = '用户剧本';

export interface AdaptedScript {
  lines: ScriptLine[];
  engine: string;
  /** Why the model's script was not used, when it failed and the local one stood in. */
  note: string | null;
}

/**
 * A text made a script: read as it is when it is already 「角色：台词」 lines, else adapted by
 * the chat model when one is configured, else (or when the model fails) by the local rules.
 * Lines with nothing to say are dropped; the caller refuses an empty script.
 */
export async function adaptScript(
  text: string,
  model: ChatModel | null | undefined,
  signal: AbortSignal,
  brief: ScriptBrief = {},
): Promise<AdaptedScript> {
  let lines = parseScript(text);
  let engine = USER_SCRIPT;
  let note: string | null = null;
  if (!lines && model) {
    try {
      lines = await modelScript(model, text, signal, brief);
      engine = model.label;
    } catch (error) {
      if (signal.aborted) throw error;
      note = `${error instanceof Error ? error.message : '模型改编失败'}，已改用本地改编`;
    }
  }
  if (!lines) {
    lines = scriptFromStory(text);
    engine = LOCAL_SCRIPT;
  }
  return { lines: lines.filter((line) => /[\p{L}\p{N}]/u.test(line.text)), engine, note };
}

/** A shot of a work as the anime pages save it: the storyboard fields beside the picture. */
interface SavedShot {
  speaker?: string;
  line?: string;
  camera?: string;
  scene?: string;
  imagePrompt: string;
}

/**
 * The storyboard the creator edited (the work's shots), when it is still the storyboard of the
 * script: one shot per line, same speakers, same words. Null when there is none or the script
 * was changed since, so the storyboard is designed again.
 */
export function savedStoryboard(
  shots: readonly SavedShot[],
  lines: readonly ScriptLine[],
): StoryboardShot[] | null {
  if (shots.length === 0 || shots.length !== lines.length) return null;
  const board: StoryboardShot[] = [];
  for (const [index, shot] of shots.entries()) {
    const line = lines[index];
    const camera = CAMERAS.find((name) => name === shot.camera);
    if (
      !line ||
      !camera ||
      !shot.scene ||
      shot.speaker !== line.speaker ||
      shot.line !== line.text
    ) {
      return null;
    }
    board.push({
      index,
      speaker: line.speaker,
      line: line.text,
      camera,
      scene: shot.scene,
      imagePrompt: shot.imagePrompt.trim() || shotOf(index, line, camera, shot.scene).imagePrompt,
    });
  }
  return board;
}

/** A storyboard shot's caption: the narrator's line alone, a character's after their name. */
export const captionOf = (shot: { speaker: string; line: string }): string =>
  shot.speaker === NARRATOR ? shot.line : `${shot.speaker}：${shot.line}`;
