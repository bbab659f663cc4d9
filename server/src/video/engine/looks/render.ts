import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GlobalFonts, createCanvas, type Canvas } from '@napi-rs/canvas';
import { TITLE_FONT_FAMILY, titleFont } from '../fonts';
import {
  LOCAL_FRAME_LABEL,
  ensureFonts,
  seeded,
  type FramePalette,
  type FrameRole,
} from '../frames/render-frame';
import { keywords } from '../../../text/analysis';
import { LAYOUTS, SANS_FAMILY, layoutAt, type Composition, type LayoutId } from './layouts';
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
  label?: string;
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

/**
 * The shot's key phrase and tagline: the local engine's keywords (up to two, in reading order,
 * role names left to the name tags), and the caption's clause around the first one. Without
 * keywords, a short clause of the caption is the title.
 */
export function keyPhrase(
  caption: string,
  scene: string,
  roleNames: readonly string[],
): { title: string; tagline: string } {
  const text = caption.trim() || scene.trim();
  const picked = keywords(text, 6)
    .filter((word) => !NUMERAL_START.test(word))
    .filter((word) => !roleNames.some((name) => word.includes(name) || name.includes(word)))
    .slice(0, 2)
    .sort((a, b) => text.indexOf(a) - text.indexOf(b));
  const parts = clauses(text);
  if (picked.length > 0) {
    const around = parts.find((part) => part.includes(picked[0] ?? '')) ?? '';
    return { title: picked.join('·'), tagline: Array.from(around).slice(0, 16).join('') };
  }
  const short = parts.find((part) => part.length <= 8) ?? parts[0] ?? text;
  return { title: Array.from(short).slice(0, 8).join(''), tagline: '' };
}

/** The frame's honest label: small, top centre, where the video's zoom never cuts it. */
function drawLabel(c: Composition, label: string): void {
  const { ctx, width, height } = c;
  const size = Math.round(Math.min(width, height) * 0.026);
  ctx.font = `${size}px ${SANS_FAMILY}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const pad = size * 0.7;
  const w = ctx.measureText(label).width + pad * 2;
  const top = height * 0.08;
  ctx.fillStyle = 'rgba(0,0,0,0.35)';
  ctx.beginPath();
  ctx.roundRect(width / 2 - w / 2, top, w, size * 1.8, size * 0.9);
  ctx.fill();
  if (c.text) {
    ctx.fillStyle = 'rgba(255,255,255,0.85)';
    ctx.fillText(label, width / 2, top + size * 0.9);
  }
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

  const tall = height > width * 1.3;
  const unit = Math.min(width, height);
  const note = portrait ? '' : (input.note?.trim() ?? '');
  // Videos burn their captions over the bottom; a picture on its own has its note there.
  const reserve = tall ? 0.27 : 0.23;
  const top = height * 0.08 + unit * 0.08;
  const safe: Box = {
    x: width * TEXT_INSET.x,
    y: top,
    w: width * (1 - TEXT_INSET.x * 2),
    h: height * (1 - reserve) - top,
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
  };
  if (layout === 'portrait') {
    // A character card: the name in columns, the description as its tagline.
    LAYOUTS.vertical({ ...composition, tagline: '' });
    const band: Box = {
      x: safe.x,
      y: height * (1 - reserve) + unit * 0.02,
      w: safe.w,
      h: height * (reserve - TEXT_INSET.y) - unit * 0.04,
    };
    if (phrase.tagline) drawNote(composition, phrase.tagline, band);
  } else {
    LAYOUTS[layout](composition);
    if (note) {
      const band: Box = {
        x: safe.x,
        y: height * (1 - reserve) + unit * 0.02,
        w: safe.w,
        h: height * (reserve - TEXT_INSET.y) - unit * 0.04,
      };
      drawNote(composition, note, band);
    }
  }
  drawLabel(composition, input.label ?? LOCAL_FRAME_LABEL);
  return { canvas, layout, theme };
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
