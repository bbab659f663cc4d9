import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CaptionStyle } from '@kol/shared-sdk/contracts';
import {
  CJK_LINE_LIMIT,
  LATIN_LINE_LIMIT,
  isLatinCaption,
  timedLines,
  type CaptionAspect,
} from './caption-lines';
import { CJK_FONT_FAMILY, cjkFonts } from './fonts';

export type Aspect = CaptionAspect;

export interface Cue {
  text: string;
  startMs: number;
  endMs: number;
}

/**
 * Narration split into sentences (one caption and one synthesis each): the SDK's split, the one
 * the caption page and the speech estimate use too.
 */
export { splitSentences } from '@kol/shared-sdk/text';

/**
 * Caption times when a provider returns one audio file for the whole narration: the total is
 * shared out by character count (the offline engine instead synthesises sentence by sentence
 * and gives exact times, see providers/speech/espeak.ts).
 */
export function apportionByChars(sentences: string[], totalMs: number): Cue[] {
  const weights = sentences.map((s) => Math.max(1, s.replace(/\s+/g, '').length));
  const sum = weights.reduce((a, b) => a + b, 0);
  let at = 0;
  return sentences.map((text, i) => {
    const startMs = Math.round((at / sum) * totalMs);
    at += weights[i] ?? 0;
    return { text, startMs, endMs: Math.round((at / sum) * totalMs) };
  });
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

function srtTime(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)},${pad(ms % 1000, 3)}`;
}

function assTime(ms: number): string {
  const cs = Math.round(ms / 10);
  const h = Math.floor(cs / 360_000);
  const m = Math.floor((cs % 360_000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  return `${h}:${pad(m)}:${pad(s)}.${pad(cs % 100)}`;
}

/** The captions as shown: one line per cue (see caption-lines.ts). */
export function captionCues(cues: Cue[], aspect: Aspect): Cue[] {
  return cues.flatMap((cue) => timedLines(cue, aspect));
}

export function toSrt(cues: Cue[], aspect: Aspect = '9:16'): string {
  return captionCues(cues, aspect)
    .map((c, i) => `${i + 1}\n${srtTime(c.startMs)} --> ${srtTime(c.endMs)}\n${c.text}\n`)
    .join('\n');
}

/** ASS escapes: braces start override blocks and a backslash starts a tag. */
const assEscape = (s: string): string =>
  s.replace(/\\/g, '＼').replace(/[{}]/g, (b) => (b === '{' ? '｛' : '｝'));

/** ASS colours are &HAABBGGRR (alpha 00 = opaque). */
const ASS_STYLE: Record<
  Exclude<CaptionStyle, 'none'>,
  { primary: string; outline: string; border: 1 | 3 }
> = {
  classic: { primary: '&H00FFFFFF', outline: '&H00000000', border: 1 },
  yellow: { primary: '&H0000E5FF', outline: '&H00000000', border: 1 },
  // BorderStyle 3: the outline colour fills a box behind the text.
  box: { primary: '&H00FFFFFF', outline: '&H60000000', border: 3 },
};

/**
 * libass sizes a font by its line height (the OS/2 table's winAscent + winDescent, as Windows
 * does), not by its em: Noto Sans SC's is 1.448 em, so `Fontsize 57` drew 39 px glyphs, the
 * "40 px" measured on a decompression video (every type burns these same captions). The ASS
 * size is the wanted em times this ratio, read from the very TTF libass is given.
 */
let lineRatio: number | null = null;
export function assLineRatio(): number {
  if (lineRatio !== null) return lineRatio;
  const ttf = readFileSync(cjkFonts().regular);
  const tables = new Map<string, number>();
  for (let i = 0; i < ttf.readUInt16BE(4); i++) {
    const at = 12 + i * 16;
    tables.set(ttf.toString('latin1', at, at + 4), ttf.readUInt32BE(at + 8));
  }
  const head = tables.get('head');
  const os2 = tables.get('OS/2');
  if (head === undefined || os2 === undefined) throw new Error('字幕字体缺少 head 或 OS/2 表');
  const unitsPerEm = ttf.readUInt16BE(head + 18);
  lineRatio = (ttf.readUInt16BE(os2 + 74) + ttf.readUInt16BE(os2 + 76)) / unitsPerEm;
  return lineRatio;
}

/** The caption em as a share of the frame's short side: 67 px at 1080 wide, as on Douyin. */
export const CAPTION_EM_SHARE = 0.062;

export interface CaptionMetrics {
  /** Pixels per CJK glyph (em) of the Chinese captions, and of the English ones. */
  em: number;
  latinEm: number;
  /** The same as ASS Fontsize values (see assLineRatio). */
  assSize: number;
  latinAssSize: number;
  /** Black outline and soft shadow, in pixels: white text reads on snow and on night alike. */
  outline: number;
  shadow: number;
  marginH: number;
  marginV: number;
}

/**
 * The burned captions' sizes for a frame. They scale with the frame, so a reduced test render
 * looks like the real one, and a line at the limit (caption-lines.ts) fits between the margins
 * with its outline (a CJK glyph is 1 em wide; English averages ~0.55 em).
 */
export function captionMetrics(
  size: { width: number; height: number },
  aspect: Aspect,
): CaptionMetrics {
  const { width, height } = size;
  const marginV = Math.round(height * (aspect === '9:16' ? 0.14 : 0.08));
  const marginH = Math.round(width * 0.05);
  const room = width - 2 * marginH;
  const wanted = Math.round(Math.min(width, height) * CAPTION_EM_SHARE);
  const outline = Math.max(2, Math.round(wanted * 0.075));
  const em = Math.min(wanted, Math.floor((room - 2 * outline) / CJK_LINE_LIMIT[aspect]));
  const latinEm = Math.min(em, Math.floor((room - 2 * outline) / (LATIN_LINE_LIMIT * 0.55)));
  const ratio = assLineRatio();
  return {
    em,
    latinEm,
    assSize: Math.round(em * ratio),
    latinAssSize: Math.round(latinEm * ratio),
    outline,
    shadow: Math.max(1, Math.round(em * 0.04)),
    marginH,
    marginV,
  };
}

/**
 * Where the burned captions' glyphs (with outline and shadow) can be, top to bottom: a frame's
 * own drawing keeps clear of it (engine/looks).
 */
export function captionBand(
  size: { width: number; height: number },
  aspect: Aspect,
): { top: number; bottom: number } {
  const m = captionMetrics(size, aspect);
  const bottom = size.height - m.marginV;
  return { top: bottom - m.assSize - m.outline, bottom: bottom + m.outline + m.shadow };
}

export function toAss(
  cues: Cue[],
  size: { width: number; height: number },
  aspect: Aspect,
  style: CaptionStyle = 'classic',
): string {
  const { width, height } = size;
  const { assSize, latinAssSize, outline, shadow, marginH, marginV } = captionMetrics(size, aspect);
  const look = ASS_STYLE[style === 'none' ? 'classic' : style];
  const shown = style === 'none' ? [] : captionCues(cues, aspect);
  const lines = shown.map(
    (c) =>
      `Dialogue: 0,${assTime(c.startMs)},${assTime(c.endMs)},${
        isLatinCaption(c.text) ? 'CaptionLatin' : 'Caption'
      },,0,0,0,,${assEscape(c.text)}`,
  );
  // The shadow (BackColour, half-transparent black) under the outline lifts the text off a
  // busy picture; the box style draws its own box instead.
  const drop = look.border === 3 ? 0 : shadow;
  const styleLine = (name: string, size: number) =>
    `Style: ${name},${CJK_FONT_FAMILY},${size},${look.primary},${look.primary},${look.outline},&H80000000,-1,0,0,0,100,100,0,0,${look.border},${outline},${drop},2,${marginH},${marginH},${marginV},1`;
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    // Bottom-centred (alignment 2); WrapStyle 2: one line per cue, never wrapped by libass.
    styleLine('Caption', assSize),
    styleLine('CaptionLatin', latinAssSize),
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...lines,
    '',
  ].join('\n');
}

async function writeWhole(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.part`;
  await writeFile(tmp, content, 'utf8');
  await rename(tmp, file);
}

export async function writeCaptions(
  cues: Cue[],
  paths: { srtPath: string; assPath: string },
  size: { width: number; height: number },
  aspect: Aspect,
  style: CaptionStyle = 'classic',
): Promise<void> {
  await writeWhole(paths.srtPath, toSrt(cues, aspect));
  await writeWhole(paths.assPath, toAss(cues, size, aspect, style));
}
