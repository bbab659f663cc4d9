import { createHash } from 'node:crypto';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { CJK_FONT_FAMILY, TITLE_FONT_FAMILY } from '../fonts';
import type { FramePalette } from '../frames/render-frame';
import { drawFitted, fitText, placeFitted, type Box, type Fitted } from './text';
import { css, isLight, type Hsl, type Theme } from './theme';

/** The brush face first; Noto Sans SC draws any character the brush face lacks. */
export const TITLE_FAMILY = `"${TITLE_FONT_FAMILY}", "${CJK_FONT_FAMILY}"`;
export const SANS_FAMILY = `"${CJK_FONT_FAMILY}"`;

/** One element a layout drew: text (the phrase, tagline, tags, number) or a shape. */
export interface Mark {
  kind: 'text' | 'shape';
  box: Box;
}

/** Everything a layout draws from; `safe` is where all of its text stays. */
export interface Composition {
  ctx: SKRSContext2D;
  width: number;
  height: number;
  theme: Theme;
  palette: FramePalette | undefined;
  /** The key phrase, set large. */
  title: string;
  /** A short clause of the caption, set small (may be empty). */
  tagline: string;
  roles: ReadonlyArray<{ name: string; color: Hsl }>;
  /** The shot's place in the work, shown small by some layouts. */
  index: number;
  safe: Box;
  /** False draws every shape but no glyph: tests diff the two to find the text's pixels. */
  text: boolean;
  /**
   * The drawing model: every element the layout drew, text or not (filled whether glyphs are
   * drawn or not). The tests check the layout on it: both halves used, the caption band clear.
   */
  marks: Mark[];
}

export const LAYOUT_IDS = ['vertical', 'rule', 'bigchar', 'split', 'frame'] as const;
export type LayoutId = (typeof LAYOUT_IDS)[number];

const unitOf = (c: Composition) => Math.min(c.width, c.height);

const mark = (c: Composition, kind: Mark['kind'], box: Box) => c.marks.push({ kind, box });

/** A filled rectangle, recorded. */
function rect(c: Composition, box: Box): void {
  c.ctx.fillRect(box.x, box.y, box.w, box.h);
  mark(c, 'shape', box);
}

/** Title colour with a soft shadow on dark themes (light ones read without it). */
function inkStyle(c: Composition, size: number, color: Hsl = c.theme.ink): void {
  c.ctx.fillStyle = css(color, c.palette);
  c.ctx.shadowColor = isLight(c.theme) ? 'rgba(0,0,0,0)' : 'rgba(0,0,0,0.55)';
  // Kept well inside the fitting's ink pad (text.ts), so a shadow never leaves the box.
  c.ctx.shadowBlur = size * 0.05;
}

function plain(c: Composition): void {
  c.ctx.shadowColor = 'rgba(0,0,0,0)';
  c.ctx.shadowBlur = 0;
}

interface TitleOptions {
  vertical?: boolean;
  maxLines?: number;
  scale?: number;
  align?: 'center' | 'left';
}

/** The key phrase fitted into a box (not drawn). */
function fitTitle(c: Composition, box: Box, options: TitleOptions): Fitted {
  const unit = unitOf(c);
  return fitText(c.ctx, c.title, box, {
    family: TITLE_FAMILY,
    maxSize: unit * (options.scale ?? 0.2),
    minSize: unit * 0.05,
    maxLines: options.maxLines ?? 3,
    ...(options.vertical ? { vertical: true } : {}),
  });
}

/** A fitted phrase drawn in its box and recorded; answers where it went. */
function drawTitle(c: Composition, fitted: Fitted, box: Box, align?: 'center' | 'left'): Box {
  const placed = placeFitted(fitted, box, align);
  if (c.text) {
    inkStyle(c, fitted.size);
    drawFitted(c.ctx, fitted, box, align);
    plain(c);
  }
  mark(c, 'text', placed);
  return placed;
}

/** The key phrase fitted into a box and drawn; answers where it went. */
function title(c: Composition, box: Box, options: TitleOptions): Box {
  return drawTitle(c, fitTitle(c, box, options), box, options.align);
}

/** The tagline in small sans, one or two lines. */
function tagline(c: Composition, box: Box, align: 'center' | 'left' = 'center'): void {
  if (!c.tagline || box.h <= 0) return;
  const unit = unitOf(c);
  const fitted = fitText(c.ctx, c.tagline, box, {
    family: SANS_FAMILY,
    maxSize: unit * 0.045,
    minSize: unit * 0.026,
    maxLines: 2,
  });
  mark(c, 'text', placeFitted(fitted, box, align));
  if (!c.text) return;
  c.ctx.fillStyle = css(c.theme.ink, c.palette, 0.82);
  drawFitted(c.ctx, fitted, box, align);
}

/** The roles present as name tags in one row: a coloured pill each, shrunk to fit the box. */
function nameTags(c: Composition, box: Box, align: 'center' | 'left' = 'center'): void {
  const roles = c.roles.slice(0, 4);
  if (roles.length === 0) return;
  const { ctx } = c;
  let size = Math.min(unitOf(c) * 0.036, box.h * 0.62);
  const widthAt = (s: number) => {
    ctx.font = `bold ${Math.floor(s)}px ${SANS_FAMILY}`;
    return roles.map((role) => ctx.measureText(role.name).width + s * 1.4);
  };
  let widths = widthAt(size);
  const total = (ws: number[], s: number) =>
    ws.reduce((a, b) => a + b, 0) + s * 0.5 * (ws.length - 1);
  while (total(widths, size) > box.w && size > 8) {
    size *= 0.9;
    widths = widthAt(size);
  }
  const height = size * 1.7;
  let x = align === 'left' ? box.x : box.x + (box.w - total(widths, size)) / 2;
  const y = box.y + (box.h - height) / 2;
  roles.forEach((role, i) => {
    const w = Math.min(widths[i] ?? 0, box.w);
    ctx.fillStyle = css(role.color, c.palette, 0.92);
    ctx.beginPath();
    ctx.roundRect(x, y, w, height, height / 2);
    ctx.fill();
    ctx.strokeStyle = css(c.theme.accent, c.palette, 0.9);
    ctx.lineWidth = Math.max(1, size * 0.08);
    ctx.stroke();
    mark(c, 'text', { x, y, w, h: height });
    if (c.text) {
      // Dark letters on a pale pill (白衣), white on the rest.
      ctx.fillStyle = role.color[2] > 55 ? '#1d1d1f' : '#ffffff';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(role.name, x + w / 2, y + height / 2, w - size * 0.6);
    }
    x += w + size * 0.5;
  });
}

/** Room for the name tags at the bottom of a box, when there are roles. */
const tagBand = (c: Composition) => (c.roles.length > 0 ? unitOf(c) * 0.085 : 0);
/** Room for the tagline under the phrase, when there is one. */
const taglineBand = (c: Composition) => (c.tagline ? unitOf(c) * 0.11 : 0);

/**
 * The phrase with its tagline right under it, the pair centred in `box` (so a short phrase
 * sits in the middle of the space, not above an empty half), or set on its bottom.
 */
function phraseBlock(c: Composition, box: Box, options: TitleOptions & { bottom?: boolean }): void {
  const tagH = taglineBand(c);
  const room = { ...box, h: box.h - tagH };
  const fitted = fitTitle(c, room, options);
  const blockH = fitted.height + fitted.size * 0.3 + tagH;
  const top = box.y + Math.max(0, (box.h - blockH) / (options.bottom ? 1 : 2));
  const titleBox = { ...box, y: top, h: fitted.height + fitted.size * 0.3 };
  const placed = drawTitle(c, fitted, titleBox, options.align);
  tagline(
    c,
    { x: box.x, y: placed.y + placed.h + fitted.size * 0.15, w: box.w, h: tagH },
    options.align,
  );
}

/** 竖排居中: the phrase in columns down the middle, rules either side its full height, tags below. */
function vertical(c: Composition): void {
  const { safe, ctx } = c;
  const band = tagBand(c);
  const box = { x: safe.x, y: safe.y, w: safe.w, h: safe.h - band };
  const unit = unitOf(c);
  ctx.fillStyle = css(c.theme.accent, c.palette, 0.7);
  const line = Math.max(1, unit * 0.003);
  for (const x of [safe.x + safe.w * 0.12, safe.x + safe.w * 0.88]) {
    rect(c, { x: x - line / 2, y: box.y + box.h * 0.02, w: line, h: box.h * 0.96 });
  }
  title(
    c,
    { ...box, x: box.x + box.w * 0.16, w: box.w * 0.68 },
    { vertical: true, maxLines: 3, scale: 0.22 },
  );
  nameTags(c, { x: safe.x, y: safe.y + safe.h - band, w: safe.w, h: band });
}

/**
 * 横排加线: an editorial page: the shot number over a short accent rule at the top, the phrase
 * and its tagline left-aligned in the middle, a thin rule closing the page above the tags.
 */
function rule(c: Composition): void {
  const { safe, ctx } = c;
  const unit = unitOf(c);
  const band = tagBand(c);
  const numberSize = unit * 0.05;
  const top = safe.y;
  ctx.fillStyle = css(c.theme.accent, c.palette);
  if (c.text) {
    ctx.font = `bold ${Math.floor(numberSize)}px ${SANS_FAMILY}`;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText(String(c.index + 1).padStart(2, '0'), safe.x + unit * 0.01, top);
  }
  mark(c, 'text', { x: safe.x, y: top, w: numberSize * 1.3, h: numberSize });
  const thick = Math.max(2, unit * 0.006);
  rect(c, { x: safe.x, y: top + numberSize * 1.5, w: safe.w * 0.22, h: thick });
  const footer = safe.y + safe.h - band - unit * 0.03;
  ctx.fillStyle = css(c.theme.accent, c.palette, 0.6);
  rect(c, { x: safe.x, y: footer, w: safe.w, h: Math.max(1, unit * 0.002) });
  const textTop = top + numberSize * 2.2;
  phraseBlock(
    c,
    { x: safe.x, y: textTop, w: safe.w, h: footer - unit * 0.02 - textTop },
    { maxLines: 3, scale: 0.16, align: 'left' },
  );
  nameTags(c, { x: safe.x, y: safe.y + safe.h - band, w: safe.w, h: band }, 'left');
}

/** 大字: the phrase's first character huge and translucent, the whole phrase across it. */
function bigchar(c: Composition): void {
  const { safe } = c;
  const band = tagBand(c);
  const first = Array.from(c.title)[0] ?? '';
  const unit = unitOf(c);
  const bigBox = { x: safe.x, y: safe.y, w: safe.w, h: (safe.h - band) * 0.72 };
  const big = fitText(c.ctx, first, bigBox, {
    family: TITLE_FAMILY,
    maxSize: Math.min(unit * 0.62, bigBox.h * 0.8),
    minSize: unit * 0.1,
    maxLines: 1,
  });
  if (c.text) {
    c.ctx.fillStyle = css(c.theme.accent, c.palette, 0.55);
    drawFitted(c.ctx, big, bigBox);
  }
  mark(c, 'text', placeFitted(big, bigBox));
  const phraseTop = bigBox.y + bigBox.h * 0.62;
  phraseBlock(
    c,
    { x: safe.x, y: phraseTop, w: safe.w, h: safe.y + safe.h - band - phraseTop },
    { maxLines: 2, scale: 0.13, bottom: true },
  );
  nameTags(c, { x: safe.x, y: safe.y + safe.h - band, w: safe.w, h: band });
}

/**
 * 分屏: a solid panel holds the phrase: the upper half of a tall frame (the tagline and tags in
 * the lower half, closed by a rule), the left of a wide one, above the captions. A tall frame
 * with nothing for its lower half gets a panel its full height rather than an empty half.
 */
function split(c: Composition): void {
  const { safe, ctx, width, height } = c;
  const tall = height > width;
  const unit = unitOf(c);
  const band = tagBand(c);
  const below = tall && (c.tagline !== '' || c.roles.length > 0);
  const panel = tall
    ? { x: 0, y: safe.y, w: width, h: below ? safe.h * 0.5 : safe.h }
    : { x: 0, y: 0, w: width * 0.48, h: safe.y + safe.h };
  ctx.fillStyle = css(c.theme.sky, c.palette, 0.9);
  rect(c, panel);
  ctx.fillStyle = css(c.theme.accent, c.palette);
  const thick = Math.max(3, unit * 0.004);
  if (tall) rect(c, { x: 0, y: panel.y + panel.h - thick, w: width, h: thick });
  else rect(c, { x: panel.w, y: 0, w: thick, h: panel.h });
  if (!tall) {
    const inner = { x: safe.x, y: safe.y, w: panel.w - safe.x - width * 0.03, h: safe.h - band };
    phraseBlock(c, inner, { maxLines: 3, scale: 0.17 });
    nameTags(c, { x: inner.x, y: safe.y + safe.h - band, w: inner.w, h: band });
    return;
  }
  const pad = unit * 0.04;
  const inner = { x: safe.x, y: panel.y + pad, w: safe.w, h: panel.h - pad * 2 };
  if (!below) {
    title(c, inner, { maxLines: 4, scale: 0.17 });
    return;
  }
  title(c, inner, { maxLines: 3, scale: 0.17 });
  // The lower half: the tagline larger than elsewhere, then the tags, then a closing rule.
  const lower = { x: safe.x, y: panel.y + panel.h + pad, w: safe.w, h: safe.h - panel.h - pad };
  const tagH = c.tagline ? Math.min(unit * 0.16, lower.h - band - pad) : 0;
  tagline(c, { x: lower.x, y: lower.y, w: lower.w, h: tagH });
  nameTags(c, { x: lower.x, y: safe.y + safe.h - band - pad, w: lower.w, h: band });
  ctx.fillStyle = css(c.theme.accent, c.palette, 0.8);
  rect(c, { x: safe.x, y: safe.y + safe.h - thick, w: safe.w, h: thick });
}

/** 画框: a double frame round the safe area, the phrase centred with a seal mark above. */
function frame(c: Composition): void {
  const { safe, ctx } = c;
  const unit = unitOf(c);
  ctx.strokeStyle = css(c.theme.accent, c.palette, 0.85);
  for (const [inset, lineWidth] of [
    [0, unit * 0.006],
    [unit * 0.018, unit * 0.002],
  ] as const) {
    ctx.lineWidth = Math.max(1, lineWidth);
    ctx.strokeRect(safe.x + inset, safe.y + inset, safe.w - inset * 2, safe.h - inset * 2);
  }
  mark(c, 'shape', safe);
  const pad = unit * 0.05;
  const inner = { x: safe.x + pad, y: safe.y + pad, w: safe.w - pad * 2, h: safe.h - pad * 2 };
  // A small red seal: the mark a promo card is signed with.
  const seal = unit * 0.06;
  ctx.fillStyle = css([4, 70, 45], c.palette, 0.9);
  rect(c, { x: inner.x + (inner.w - seal) / 2, y: inner.y, w: seal, h: seal });
  const band = tagBand(c);
  phraseBlock(
    c,
    { x: inner.x, y: inner.y + seal * 1.3, w: inner.w, h: inner.h - seal * 1.3 - band },
    { maxLines: 4, scale: 0.16 },
  );
  nameTags(c, { x: inner.x, y: inner.y + inner.h - band, w: inner.w, h: band });
}

export const LAYOUTS: Record<LayoutId, (c: Composition) => void> = {
  vertical,
  rule,
  bigchar,
  split,
  frame,
};

const byte = (key: string) => createHash('sha256').update(key).digest()[0] ?? 0;

/**
 * The layout of a work's shot: a walk over the layouts that moves 1 to n-1 places a step, so
 * two shots in a row never share one, and the same work and index always give the same layout.
 */
export function layoutAt(seriesKey: string, index: number): LayoutId {
  const n = LAYOUT_IDS.length;
  let at = byte(seriesKey) % n;
  for (let i = 1; i <= Math.max(0, index); i++)
    at = (at + 1 + (byte(`${seriesKey}:${i}`) % (n - 1))) % n;
  return LAYOUT_IDS[at] ?? 'frame';
}
