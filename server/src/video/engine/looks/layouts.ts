import { createHash } from 'node:crypto';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { CJK_FONT_FAMILY, TITLE_FONT_FAMILY } from '../fonts';
import type { FramePalette } from '../frames/render-frame';
import { drawFitted, fitText, type Box } from './text';
import { css, isLight, type Hsl, type Theme } from './theme';

/** The brush face first; Noto Sans SC draws any character the brush face lacks. */
export const TITLE_FAMILY = `"${TITLE_FONT_FAMILY}", "${CJK_FONT_FAMILY}"`;
export const SANS_FAMILY = `"${CJK_FONT_FAMILY}"`;

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
}

export const LAYOUT_IDS = ['vertical', 'rule', 'bigchar', 'split', 'frame'] as const;
export type LayoutId = (typeof LAYOUT_IDS)[number];

const unitOf = (c: Composition) => Math.min(c.width, c.height);

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

/** The key phrase fitted into a box and drawn; answers the block's fitted height. */
function title(
  c: Composition,
  box: Box,
  options: { vertical?: boolean; maxLines?: number; scale?: number; align?: 'center' | 'left' },
): number {
  const unit = unitOf(c);
  const fitted = fitText(c.ctx, c.title, box, {
    family: TITLE_FAMILY,
    maxSize: unit * (options.scale ?? 0.2),
    minSize: unit * 0.05,
    maxLines: options.maxLines ?? 3,
    ...(options.vertical ? { vertical: true } : {}),
  });
  if (c.text) {
    inkStyle(c, fitted.size);
    drawFitted(c.ctx, fitted, box, options.align);
    plain(c);
  }
  return fitted.height;
}

/** The tagline in small sans, one or two lines. */
function tagline(c: Composition, box: Box, align: 'center' | 'left' = 'center'): void {
  if (!c.tagline || !c.text) return;
  const unit = unitOf(c);
  const fitted = fitText(c.ctx, c.tagline, box, {
    family: SANS_FAMILY,
    maxSize: unit * 0.04,
    minSize: unit * 0.026,
    maxLines: 2,
  });
  c.ctx.fillStyle = css(c.theme.ink, c.palette, 0.78);
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

/** 竖排居中: the phrase in columns down the middle, thin rules either side, tags below. */
function vertical(c: Composition): void {
  const { safe, ctx } = c;
  const band = tagBand(c);
  const box = { x: safe.x, y: safe.y, w: safe.w, h: safe.h - band };
  const unit = unitOf(c);
  ctx.strokeStyle = css(c.theme.accent, c.palette, 0.7);
  ctx.lineWidth = Math.max(1, unit * 0.003);
  for (const x of [safe.x + safe.w * 0.12, safe.x + safe.w * 0.88]) {
    ctx.beginPath();
    ctx.moveTo(x, box.y + box.h * 0.1);
    ctx.lineTo(x, box.y + box.h * 0.9);
    ctx.stroke();
  }
  title(
    c,
    { ...box, x: box.x + box.w * 0.16, w: box.w * 0.68 },
    { vertical: true, maxLines: 3, scale: 0.22 },
  );
  nameTags(c, { x: safe.x, y: safe.y + safe.h - band, w: safe.w, h: band });
}

/** 横排加线: left-aligned phrase in the lower half, an accent rule and the shot number above. */
function rule(c: Composition): void {
  const { safe, ctx } = c;
  const unit = unitOf(c);
  const band = tagBand(c);
  const numberSize = unit * 0.045;
  const top = safe.y + safe.h * 0.38;
  ctx.fillStyle = css(c.theme.accent, c.palette);
  ctx.fillRect(safe.x, top + numberSize * 1.5, safe.w * 0.22, Math.max(2, unit * 0.006));
  if (c.text) {
    ctx.font = `bold ${Math.floor(numberSize)}px ${SANS_FAMILY}`;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText(String(c.index + 1).padStart(2, '0'), safe.x + unit * 0.01, top);
  }
  const textTop = top + numberSize * 2;
  const tagH = c.tagline ? unit * 0.1 : 0;
  const box = { x: safe.x, y: textTop, w: safe.w, h: safe.y + safe.h - band - tagH - textTop };
  const used = title(c, { ...box, h: box.h }, { maxLines: 3, scale: 0.16, align: 'left' });
  // The tagline right under the phrase, not under the box.
  const below = box.y + (box.h + used) / 2;
  tagline(c, { x: safe.x, y: below, w: safe.w, h: tagH }, 'left');
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
  const phraseBox = {
    x: safe.x,
    y: bigBox.y + bigBox.h * 0.62,
    w: safe.w,
    h: safe.y + safe.h - band - (bigBox.y + bigBox.h * 0.62),
  };
  title(c, phraseBox, { maxLines: 2, scale: 0.13 });
  nameTags(c, { x: safe.x, y: safe.y + safe.h - band, w: safe.w, h: band });
}

/** 分屏: a solid panel (the upper part of a tall frame, the left of a wide one) holds the text. */
function split(c: Composition): void {
  const { safe, ctx, width, height } = c;
  const tall = height > width;
  const panel = tall
    ? { x: 0, y: safe.y - height * 0.03, w: width, h: safe.h * 0.62 }
    : { x: 0, y: 0, w: width * 0.48, h: height };
  ctx.fillStyle = css(c.theme.sky, c.palette, 0.9);
  ctx.fillRect(panel.x, panel.y, panel.w, panel.h);
  ctx.fillStyle = css(c.theme.accent, c.palette);
  if (tall) ctx.fillRect(0, panel.y + panel.h, width, Math.max(3, height * 0.004));
  else ctx.fillRect(panel.w, 0, Math.max(3, width * 0.004), height);
  const inner = tall
    ? { x: safe.x, y: panel.y + height * 0.03, w: safe.w, h: panel.h - height * 0.05 }
    : { x: safe.x, y: safe.y, w: panel.w - safe.x - width * 0.03, h: safe.h };
  const band = tagBand(c);
  const tagH = c.tagline ? unitOf(c) * 0.1 : 0;
  const box = { ...inner, h: inner.h - band - tagH };
  const used = title(c, box, { maxLines: 3, scale: 0.17 });
  tagline(c, { x: inner.x, y: box.y + (box.h + used) / 2, w: inner.w, h: tagH });
  nameTags(c, { x: inner.x, y: inner.y + inner.h - band, w: inner.w, h: band });
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
  const pad = unit * 0.05;
  const inner = { x: safe.x + pad, y: safe.y + pad, w: safe.w - pad * 2, h: safe.h - pad * 2 };
  // A small red seal: the mark a promo card is signed with.
  const seal = unit * 0.06;
  ctx.fillStyle = css([4, 70, 45], c.palette, 0.9);
  ctx.fillRect(inner.x + (inner.w - seal) / 2, inner.y, seal, seal);
  const band = tagBand(c);
  const tagH = c.tagline ? unit * 0.1 : 0;
  const box = {
    x: inner.x,
    y: inner.y + seal * 1.3,
    w: inner.w,
    h: inner.h - seal * 1.3 - band - tagH,
  };
  const used = title(c, box, { maxLines: 4, scale: 0.16 });
  tagline(c, { x: inner.x, y: box.y + (box.h + used) / 2, w: inner.w, h: tagH });
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
