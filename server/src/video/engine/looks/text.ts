import type { SKRSContext2D } from '@napi-rs/canvas';

/** A rectangle of the frame, in pixels. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface FitOptions {
  /** A CSS font family list, e.g. `"Ma Shan Zheng", "Noto Sans SC"` (the second fills gaps). */
  family: string;
  bold?: boolean;
  maxSize: number;
  minSize: number;
  maxLines: number;
  /** Top to bottom in columns read right to left, the way titles are set on covers. */
  vertical?: boolean;
  /** Line (or column) pitch as a multiple of the size. */
  pitch?: number;
}

export interface Fitted {
  font: string;
  size: number;
  /** Lines, or columns when vertical. */
  lines: string[];
  vertical: boolean;
  pitch: number;
  /** The block's extent: what the layout places. */
  width: number;
  height: number;
}

const fontOf = (options: FitOptions, size: number) =>
  `${options.bold ? 'bold ' : ''}${Math.floor(size)}px ${options.family}`;

/** Brush strokes reach past the advance box; this much room is kept round every glyph. */
const INK_PAD = 0.12;

/** The ink width of a line: the wider of its advance and its glyphs' actual bounds. */
function inkWidth(ctx: SKRSContext2D, text: string): number {
  const m = ctx.measureText(text);
  return Math.max(m.width, m.actualBoundingBoxLeft + m.actualBoundingBoxRight);
}

/** Lines of at most `maxWidth` ink, broken between characters (CJK has no spaces). */
function greedy(ctx: SKRSContext2D, chars: readonly string[], maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const char of chars) {
    if (line && inkWidth(ctx, line + char) > maxWidth) {
      lines.push(line);
      line = char.trim() ? char : '';
    } else {
      line += char;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Lines that fit `maxWidth`, as even as the greedy count allows: a title never ends on one
 * orphan character. Keywords joined by 「·」 break at the dot first, a keyword a line.
 */
function wrap(ctx: SKRSContext2D, text: string, maxWidth: number): string[] {
  const chars = Array.from(text);
  const lines = greedy(ctx, chars, maxWidth);
  if (lines.length < 2) return lines;
  const words = text.split('·').filter(Boolean);
  if (words.length === lines.length && words.every((w) => inkWidth(ctx, w) <= maxWidth)) {
    return words;
  }
  const per = Math.ceil(chars.length / lines.length);
  const even: string[] = [];
  for (let i = 0; i < chars.length; i += per) even.push(chars.slice(i, i + per).join(''));
  return even.every((line) => inkWidth(ctx, line) <= maxWidth) ? even : lines;
}

/** The last line cut short with an ellipsis until it fits. */
function ellipsize(ctx: SKRSContext2D, line: string, maxWidth: number): string {
  let chars = Array.from(line);
  while (chars.length > 1 && inkWidth(ctx, `${chars.join('')}…`) > maxWidth)
    chars = chars.slice(0, -1);
  return `${chars.join('')}…`;
}

/**
 * The largest size at which the text fits the box in at most `maxLines` lines, shrinking step
 * by step; at the smallest size the text is cut with an ellipsis. Vertical text that does not
 * fit even then is set horizontally: a cut column reads badly.
 */
export function fitText(ctx: SKRSContext2D, text: string, box: Box, options: FitOptions): Fitted {
  const clean = text.replace(/\s+/g, ' ').trim();
  const pitch = options.pitch ?? (options.vertical ? 1.25 : 1.3);
  for (let size = options.maxSize; size >= options.minSize; size *= 0.92) {
    ctx.font = fontOf(options, size);
    const pad = size * INK_PAD * 2;
    if (options.vertical) {
      const chars = Array.from(clean.replace(/\s/g, ''));
      const perColumn = Math.floor((box.h - pad) / (size * 1.04));
      if (perColumn < 1) continue;
      // Keywords joined by 「·」 take a column each when they fit one.
      const words = clean.split('·').filter(Boolean);
      let columns: string[] = [];
      if (words.length > 1 && words.every((w) => Array.from(w).length <= perColumn)) {
        columns = words;
      } else {
        for (let i = 0; i < chars.length; i += perColumn) {
          columns.push(chars.slice(i, i + perColumn).join(''));
        }
      }
      const width = columns.length * size * pitch;
      if (columns.length <= options.maxLines && width + pad <= box.w) {
        const longest = Math.max(...columns.map((c) => Array.from(c).length));
        return {
          font: ctx.font,
          size,
          lines: columns,
          vertical: true,
          pitch,
          width,
          height: longest * size * 1.04,
        };
      }
      continue;
    }
    const lines = wrap(ctx, clean, box.w - pad);
    if (lines.length <= options.maxLines && lines.length * size * pitch + pad <= box.h) {
      const width = Math.max(...lines.map((l) => inkWidth(ctx, l)));
      return {
        font: ctx.font,
        size,
        lines,
        vertical: false,
        pitch,
        width,
        height: lines.length * size * pitch,
      };
    }
  }
  if (options.vertical)
    return fitText(ctx, text, box, { ...options, vertical: false, maxLines: 2 });
  const size = options.minSize;
  ctx.font = fontOf(options, size);
  const pad = size * INK_PAD * 2;
  const room = Math.max(1, Math.min(options.maxLines, Math.floor((box.h - pad) / (size * pitch))));
  const lines = wrap(ctx, clean, box.w - pad);
  const kept = lines.slice(0, room);
  if (lines.length > room) kept[room - 1] = ellipsize(ctx, kept[room - 1] ?? '', box.w - pad);
  const width = Math.max(...kept.map((l) => inkWidth(ctx, l)));
  return {
    font: ctx.font,
    size,
    lines: kept,
    vertical: false,
    pitch,
    width,
    height: kept.length * size * pitch,
  };
}

/**
 * Where drawFitted puts a fitted block inside its box: centred, or against the box's left edge.
 * The layouts record it (their drawing model, which the tests check).
 */
export function placeFitted(fitted: Fitted, box: Box, align: 'center' | 'left' = 'center'): Box {
  const pad = fitted.size * INK_PAD;
  const x = align === 'left' ? box.x + pad : box.x + (box.w - fitted.width) / 2;
  return { x, y: box.y + (box.h - fitted.height) / 2, w: fitted.width, h: fitted.height };
}

/**
 * Draws a fitted block inside its box (placeFitted). The caller sets fillStyle (and shadow,
 * kept smaller than the ink pad). Answers where it went.
 */
export function drawFitted(
  ctx: SKRSContext2D,
  fitted: Fitted,
  box: Box,
  align: 'center' | 'left' = 'center',
): Box {
  const placed = placeFitted(fitted, box, align);
  ctx.font = fitted.font;
  ctx.textBaseline = 'middle';
  const { size, pitch } = fitted;
  if (fitted.vertical) {
    ctx.textAlign = 'center';
    fitted.lines.forEach((column, c) => {
      // Right to left: the first column is the rightmost.
      const x = placed.x + fitted.width - (c + 0.5) * size * pitch;
      Array.from(column).forEach((char, i) =>
        ctx.fillText(char, x, placed.y + (i + 0.5) * size * 1.04),
      );
    });
    return placed;
  }
  ctx.textAlign = align;
  const x = align === 'left' ? placed.x : box.x + box.w / 2;
  fitted.lines.forEach((line, i) => ctx.fillText(line, x, placed.y + (i + 0.5) * size * pitch));
  return placed;
}
