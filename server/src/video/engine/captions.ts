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
import { CJK_FONT_FAMILY } from './fonts';

export type Aspect = CaptionAspect;

export interface Cue {
  text: string;
  startMs: number;
  endMs: number;
}

// A Latin full stop ends a sentence only before a space or the end (not in 3.5 or a.m.).
const SENTENCE_END = /([。！？!?；;…]+[”’」』）)]*|\.+["')]*(?=\s|$)|\n+)/;
const CLAUSE_BREAK = /([，,、：:]+)/;

/**
 * Splits narration into sentences at Chinese (and Western) sentence punctuation, keeping the
 * punctuation with its sentence. A sentence longer than `maxChars` is split again at commas,
 * so no single caption stays on screen for too long.
 */
export function splitSentences(text: string, maxChars = 40): string[] {
  const pieces = text.split(SENTENCE_END);
  const sentences: string[] = [];
  for (let i = 0; i < pieces.length; i += 2) {
    const s = `${pieces[i] ?? ''}${(pieces[i + 1] ?? '').replace(/\n+/g, '')}`.trim();
    if (!s) continue;
    if (s.length <= maxChars) {
      sentences.push(s);
      continue;
    }
    const clauses = s.split(CLAUSE_BREAK);
    let current = '';
    for (let j = 0; j < clauses.length; j += 2) {
      const clause = `${clauses[j] ?? ''}${clauses[j + 1] ?? ''}`;
      if (current && current.length + clause.length > maxChars) {
        sentences.push(current.trim());
        current = '';
      }
      current += clause;
    }
    if (current.trim()) sentences.push(current.trim());
  }
  return sentences.filter((s) => /[\p{L}\p{N}]/u.test(s));
}

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

const isWide = (ch: string): boolean =>
  /[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]/.test(ch);

/**
 * Wraps a text into lines of at most `maxWidth` CJK characters (Latin counts half), breaking
 * Latin text at spaces, and never starting a line with closing punctuation. The scrolling
 * video's page of text; captions are laid out by caption-lines.ts.
 */
export function wrapCaption(text: string, maxWidth: number): string[] {
  // Balanced lines: 15 characters at width 14 become 8 + 7, not 14 + a lone character.
  const total = Array.from(text.trim()).reduce((a, c) => a + (isWide(c) ? 1 : 0.5), 0);
  const width = Math.ceil(total / Math.max(1, Math.ceil(total / maxWidth)));
  const lines: string[] = [];
  let line = '';
  let units = 0;
  const chars = Array.from(text.trim());
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? '';
    const w = isWide(ch) ? 1 : 0.5;
    const closing = /[，。！？、；：”’」』）),.!?;:]/.test(ch);
    if (units + w > width && line && !closing) {
      const space = line.lastIndexOf(' ');
      // Keep a Latin word whole by moving it to the next line.
      if (!isWide(ch) && ch !== ' ' && space > 0 && line.length - space < 20) {
        lines.push(line.slice(0, space));
        line = line.slice(space + 1);
        units = Array.from(line).reduce((a, c) => a + (isWide(c) ? 1 : 0.5), 0);
      } else {
        lines.push(line);
        line = '';
        units = 0;
      }
      if (ch === ' ') continue;
    }
    line += ch;
    units += w;
  }
  if (line.trim()) lines.push(line.trim());
  return lines.map((l) => l.trim()).filter(Boolean);
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

export function toAss(
  cues: Cue[],
  size: { width: number; height: number },
  aspect: Aspect,
  style: CaptionStyle = 'classic',
): string {
  const { width, height } = size;
  const marginV = Math.round(height * (aspect === '9:16' ? 0.14 : 0.08));
  const marginH = Math.round(width * 0.06);
  // Sizes scale with the frame so a reduced test render looks like the real one, and a line at
  // the limit fits between the margins (a CJK glyph is 1 em wide; English averages ~0.55 em).
  const room = width - 2 * marginH;
  const fontSize = Math.min(
    Math.round((aspect === '9:16' ? width : height) * 0.058),
    Math.floor(room / (CJK_LINE_LIMIT[aspect] + 0.5)),
  );
  const latinSize = Math.min(fontSize, Math.floor(room / (LATIN_LINE_LIMIT * 0.55)));
  const outline = Math.max(2, Math.round(fontSize / 16));
  const look = ASS_STYLE[style === 'none' ? 'classic' : style];
  const shown = style === 'none' ? [] : captionCues(cues, aspect);
  const lines = shown.map(
    (c) =>
      `Dialogue: 0,${assTime(c.startMs)},${assTime(c.endMs)},${
        isLatinCaption(c.text) ? 'CaptionLatin' : 'Caption'
      },,0,0,0,,${assEscape(c.text)}`,
  );
  const styleLine = (name: string, size: number) =>
    `Style: ${name},${CJK_FONT_FAMILY},${size},${look.primary},${look.primary},${look.outline},&H80000000,-1,0,0,0,100,100,0,0,${look.border},${outline},0,2,${marginH},${marginH},${marginV},1`;
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
    styleLine('Caption', fontSize),
    styleLine('CaptionLatin', latinSize),
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
