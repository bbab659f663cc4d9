import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GlobalFonts, createCanvas, type Canvas } from '@napi-rs/canvas';
import { TITLE_FONT_FAMILY, titleFont } from '../fonts';
import { ensureFonts, seeded, type FramePalette, type FrameRole } from '../frames/render-frame';
import { segmenter } from '../../../text/segmenter';
import { captionBand } from '../captions';
import {
  LAYOUTS,
  SANS_FAMILY,
  layoutAt,
  type Composition,
  type LayoutId,
  type Mark,
} from './layouts';
import { drawFitted, fitText, type Box } from './text';
import { paintBackground } from './texture';
import { roleColor, sceneLook, styled, type Theme } from './theme';

export interface LocalPictureInput {
  /** The shot's picture prompt: its words pick the palette and texture. */
  scene: string;
  /** The shot's caption: its keywords make the title. */
  caption: string;
  /** The roles present, shown as name tags. */
  roles?: readonly FrameRole[];
  /** Drawn small at the bottom on a picture shown on its own (videos burn captions there). */
  note?: string;
  palette?: FramePalette;
  width: number;
  height: number;
  /** The work, and the shot's place in it: they pick the layout (see layoutAt). */
  seriesKey: string;
  shotIndex: number;
  /** A role portrait instead of a shot: the role's name large, colours from its description. */
  portrait?: FrameRole;
}

/**
 * Where every glyph stays, as fractions of the frame: the video's slow zoom (1.15, centred) and
 * pan (1.12) crop up to about 11% of a side, and nothing written should be cut.
 */
export const TEXT_INSET = { x: 0.1, y: 0.06 };

let titleRegistered = false;
function ensureTitleFont(): void {
  ensureFonts();
  if (!titleRegistered) {
    GlobalFonts.registerFromPath(titleFont(), TITLE_FONT_FAMILY);
    titleRegistered = true;
  }
}

const clauses = (text: string) =>
  text
    .split(/[，。！？；：、,.!?;:…“”"「」『』（）()\s]+/u)
    .map((part) => part.trim())
    .filter((part) => /\p{Script=Han}.*\p{Script=Han}|[A-Za-z]{2,}/u.test(part));

// Measure words such as 一盏盏 rank high in TF-IDF and read badly as a title.
const NUMERAL_START = /^[一二三四五六七八九十两几半]/u;
/** The parts of speech a title is made of: nouns, places, other proper nouns, names, verbal nouns. */
const TITLE_POS = ['n', 'ns', 'nz', 'nr', 'vn'];
/** Pronouns jieba glues into a "noun" (我会, 你家): never a title. */
const PRONOUN_START = /^[我你他她它咱您俺]/u;
/**
 * Words jieba tags as nouns that say nothing of the picture: discourse and time words (话音刚落,
 * 下一刻), forms of address (小子, 师兄), and vague or inner words (东西, 心中, 目光所及).
 */
const DISCOURSE = new Set(
  (
    '话音刚落 话音未落 话音 话语 说话 声音落下 与此同时 一时间 下一刻 下一秒 片刻 刹那 瞬间 ' +
    '一瞬间 此时 此刻 这时 那时 当时 当下 时候 时间 之后 之前 以后 以前 最后 最终 结果 原来 ' +
    '小子 老子 家伙 丫头 小丫头 臭小子 老头 老头子 老东西 大人 老大 兄弟 兄台 阁下 在下 本座 ' +
    '老夫 本王 朕 本宫 公子 少爷 小姐 姑娘 师父 师傅 师尊 师兄 师姐 师弟 师妹 前辈 晚辈 道友 ' +
    '众人 大家 对方 自己 别人 人家 所有人 东西 事情 事儿 样子 感觉 心里 心中 心头 脑海 内心 ' +
    '意思 办法 问题 情况 方面 地方 一声 一眼 目光 眼神 表情 脸色 神色 模样 声音 语气 口气 ' +
    '废物 混蛋 畜生 贱人 蠢货 废柴 掌柜 小二 客官 店家 老板'
  ).split(/\s+/u),
);

/** A person named by a form of address (沈姑娘, 萧公子): a role, not what the picture shows. */
const ADDRESSED =
  /(姑娘|公子|小姐|殿下|大人|少爷|少主|师兄|师姐|师弟|师妹|师父|师尊|前辈|老爷|夫人|娘子|相公)$/u;
/** A verb or particle jieba's HMM glued onto a word (苏家来 from 苏家来退婚了). */
const GLUED_TAIL = /[来去说道看着了的是在把被]$/u;

/** Whether a tagged word may be the picture's title. */
function titleWord(word: string, roleNames: readonly string[]): boolean {
  return (
    Array.from(word).length >= 2 &&
    !GLUED_TAIL.test(word) &&
    !ADDRESSED.test(word) &&
    /\p{Script=Han}/u.test(word) &&
    !NUMERAL_START.test(word) &&
    !PRONOUN_START.test(word) &&
    !DISCOURSE.has(word) &&
    !roleNames.some((name) => word.includes(name) || name.includes(word))
  );
}

/**
 * The nouns, places and objects of a text (jieba's parts of speech, TF-IDF weighted): up to
 * two, in reading order.
 */
export function pictureWords(text: string, roleNames: readonly string[]): string[] {
  const { jieba, tfidf } = segmenter();
  const picked = tfidf
    .extractKeywords(jieba, text, 12, TITLE_POS)
    .map((k) => k.keyword)
    .filter((word) => titleWord(word, roleNames))
    .slice(0, 2);
  return picked.sort((a, b) => text.indexOf(a) - text.indexOf(b));
}

/**
 * The shot's key phrase and tagline: the nouns, places and objects of its caption (up to two,
 * in reading order, joined by 「·」; role names are left to the name tags, discourse words and
 * pronouns never taken), else of its picture prompt, and the caption's clause around the first.
 * Without any, a short clause of the caption that is not a discourse word is the title.
 */
export function keyPhrase(
  caption: string,
  scene: string,
  roleNames: readonly string[],
): { title: string; tagline: string } {
  const text = caption.trim() || scene.trim();
  let picked = pictureWords(text, roleNames);
  if (picked.length === 0 && scene.trim() && scene.trim() !== text)
    picked = pictureWords(scene.trim(), roleNames);
  const parts = clauses(text);
  if (picked.length > 0) {
    const around = parts.find((part) => part.includes(picked[0] ?? '')) ?? parts[0] ?? '';
    return { title: picked.join('·'), tagline: Array.from(around).slice(0, 16).join('') };
  }
  const meaningful = parts.filter((part) => !DISCOURSE.has(part) && !roleNames.includes(part));
  const short = meaningful.find((part) => part.length <= 8) ?? meaningful[0] ?? text;
  return { title: Array.from(short).slice(0, 8).join(''), tagline: '' };
}

/** The zoom of the video's slowest Ken Burns move (compose.ts zoompan): 1.15, centred. */
const KEN_BURNS_ZOOM = 1.15;

/**
 * Where a frame's design stays: inside the text inset, and above the burned captions even when
 * the video's zoom has pushed it down (a point at y shows at h/2 + (y - h/2) * 1.15).
 */
export function designArea(width: number, height: number): Box {
  const unit = Math.min(width, height);
  const aspect = height > width ? '9:16' : '16:9';
  const band = captionBand({ width, height }, aspect);
  const clear = band.top - unit * 0.03;
  const bottom = height / 2 + (clear - height / 2) / KEN_BURNS_ZOOM;
  const top = height * TEXT_INSET.y + unit * 0.02;
  return {
    x: width * TEXT_INSET.x,
    y: top,
    w: width * (1 - TEXT_INSET.x * 2),
    h: bottom - top,
  };
}

/** A note (a standalone picture's prompt) in a translucent box under the design. */
function drawNote(c: Composition, note: string, box: Box): void {
  const { ctx } = c;
  const fitted = fitText(ctx, note, box, {
    family: SANS_FAMILY,
    maxSize: Math.min(c.width, c.height) * 0.04,
    minSize: Math.min(c.width, c.height) * 0.026,
    maxLines: 4,
  });
  ctx.fillStyle = 'rgba(0,0,0,0.4)';
  const h = fitted.height + fitted.size;
  ctx.beginPath();
  ctx.roundRect(
    box.x - fitted.size * 0.2,
    box.y + (box.h - h) / 2,
    box.w + fitted.size * 0.4,
    h,
    fitted.size * 0.4,
  );
  ctx.fill();
  if (c.text) {
    ctx.fillStyle = 'rgba(255,255,255,0.92)';
    drawFitted(ctx, fitted, box);
  }
}

export interface Composed {
  canvas: Canvas;
  /** The drawing model: every element the layout drew (layouts.ts Mark). */
  marks: Mark[];
  /** The design area (designArea): all of it above the burned captions. */
  safe: Box;
  layout: LayoutId | 'portrait';
  theme: Theme;
}

/**
 * The designed local picture on a canvas. `text: false` draws the same picture without any
 * glyph, which is how the tests find where the text went.
 */
export function composeLocalPicture(
  input: LocalPictureInput,
  options: { text?: boolean; layout?: LayoutId; phrase?: { title: string; tagline: string } } = {},
): Composed {
  ensureTitleFont();
  const { width, height } = input;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const portrait = input.portrait;
  const look = sceneLook(
    portrait ? (portrait.description ?? '') : `${input.scene} ${input.caption}`,
  );
  let theme = styled(look.theme, input.palette);
  if (portrait) {
    // The role's own colour washes the card, whatever its description says of places.
    const color = roleColor(portrait.name, portrait.description);
    theme = { ...theme, accent: color, ground: [color[0], color[1], Math.min(color[2], 30)] };
  }
  const rnd = seeded(`${input.seriesKey}|${input.shotIndex}|${input.scene}`);
  paintBackground({ ctx, width, height, theme, palette: input.palette, rnd }, look.textures);

  const unit = Math.min(width, height);
  const note = portrait ? '' : (input.note?.trim() ?? '');
  // Videos burn their captions under the design; a picture on its own has its note there.
  const safe = designArea(width, height);
  const noteBand: Box = {
    x: safe.x,
    y: safe.y + safe.h + unit * 0.02,
    w: safe.w,
    h: height * (1 - TEXT_INSET.y) - (safe.y + safe.h) - unit * 0.04,
  };
  const roles = portrait ? [] : (input.roles ?? []);
  const names = roles.map((role) => role.name);
  const phrase =
    options.phrase ??
    (portrait
      ? { title: portrait.name, tagline: portrait.description?.trim().slice(0, 40) ?? '' }
      : keyPhrase(input.caption, input.scene, names));
  const layout: LayoutId | 'portrait' = portrait
    ? 'portrait'
    : (options.layout ?? layoutAt(input.seriesKey, input.shotIndex));
  const composition: Composition = {
    ctx,
    width,
    height,
    theme,
    palette: input.palette,
    title: phrase.title,
    tagline: phrase.tagline,
    roles: roles.map((role) => ({
      name: role.name,
      color: roleColor(role.name, role.description),
    })),
    index: input.shotIndex,
    safe,
    text: options.text ?? true,
    marks: [],
  };
  if (layout === 'portrait') {
    // A character card: the name in columns, the description as its tagline.
    LAYOUTS.vertical({ ...composition, tagline: '' });
    if (phrase.tagline) drawNote(composition, phrase.tagline, noteBand);
  } else {
    LAYOUTS[layout](composition);
    if (note) drawNote(composition, note, noteBand);
  }
  return { canvas, layout, theme, marks: composition.marks, safe };
}

/** The designed local picture as JPEG (the offline engine of draw.ts). */
export function renderLocalPicture(input: LocalPictureInput): Buffer {
  return composeLocalPicture(input).canvas.toBuffer('image/jpeg', 90);
}

/** The designed local picture written whole to `outPath` (a reader never sees half a file). */
export async function renderLocalPictureToFile(
  input: LocalPictureInput,
  outPath: string,
): Promise<string> {
  await mkdir(path.dirname(outPath), { recursive: true });
  const tmp = `${outPath}.part`;
  await writeFile(tmp, renderLocalPicture(input));
  await rename(tmp, outPath);
  return outPath;
}
