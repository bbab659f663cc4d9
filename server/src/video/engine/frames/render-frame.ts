import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GlobalFonts, createCanvas } from '@napi-rs/canvas';
import { cjkFonts } from '../fonts';

/** A role present in the shot: drawn as a figure with its name and a few words of it. */
export interface FrameRole {
  name: string;
  description?: string;
}

/** How an image style (library/image-styles.ts) changes the colours of a local frame. */
export interface FramePalette {
  /** Multiplies the saturation of every colour. */
  saturation: number;
  /** Added to the lightness of every colour (percentage points). */
  lightness: number;
  /** The two gradient hues, instead of the scene's. */
  hues?: [number, number];
}

export interface FrameInput {
  /** Scene description: its words pick the colours (night, sea, forest…), its hash the rest. */
  scene: string;
  /** The roles present in the shot (names, or names with descriptions). */
  roles?: Array<string | FrameRole>;
  /**
   * Drawn in a caption box: for pictures shown on their own (gen_img, role portraits). Video
   * frames leave it out, since ffmpeg burns the captions in with the narration's timing.
   */
  caption?: string;
  palette?: FramePalette;
  width: number;
  height: number;
}

/**
 * Scene words to hues, so a night reads dark blue and a forest green before any hash: the
 * first word found wins. `dark` darkens the whole panel (night scenes).
 */
const SCENE_HUES: Array<{ words: RegExp; hue: number; dark?: boolean }> = [
  { words: /夜|晚上|深夜|月光|月色|星空|黑暗/u, hue: 230, dark: true },
  { words: /雪|冰|寒冬|冬天/u, hue: 200 },
  { words: /火|夕阳|黄昏|晚霞|落日|烈焰/u, hue: 18 },
  { words: /森林|树林|竹林|草地|草原|山林|田野/u, hue: 115 },
  { words: /海|江|河|湖|雨|水边/u, hue: 205 },
  { words: /沙漠|秋天|麦田|落叶/u, hue: 38 },
  { words: /城市|街道|霓虹|高楼|都市/u, hue: 265 },
  { words: /花|春天|樱/u, hue: 335 },
  { words: /清晨|早晨|阳光|天空|白天/u, hue: 190 },
  { words: /宫殿|皇宫|庙|寺|古城/u, hue: 8 },
];

export function sceneTone(scene: string): { hue: number; dark: boolean } | null {
  const match = SCENE_HUES.find((entry) => entry.words.test(scene));
  return match ? { hue: match.hue, dark: match.dark === true } : null;
}

let fontsRegistered = false;
/** Registers Noto Sans SC with canvas once; answers its family name. */
export function ensureFonts(): string {
  const fonts = cjkFonts();
  if (!fontsRegistered) {
    GlobalFonts.registerFromPath(fonts.regular, fonts.family);
    if (fonts.bold) GlobalFonts.registerFromPath(fonts.bold, fonts.family);
    fontsRegistered = true;
  }
  return fonts.family;
}

/** A small deterministic byte stream from the scene text (no Math.random: frames must repeat). */
export function seeded(text: string): () => number {
  let counter = 0;
  let pool = Buffer.alloc(0);
  return () => {
    if (pool.length === 0) pool = createHash('sha256').update(`${text}#${counter++}`).digest();
    const b = pool[0] ?? 0;
    pool = pool.subarray(1);
    return b / 255;
  };
}

const hsl = (h: number, s: number, l: number): string =>
  `hsl(${Math.round(h)}, ${Math.round(s)}%, ${Math.round(l)}%)`;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Lines of at most `maxWidth` pixels, broken between characters (CJK has no spaces). */
function wrapText(
  measure: (text: string) => number,
  text: string,
  maxWidth: number,
  maxLines: number,
): string[] {
  const lines: string[] = [];
  let line = '';
  for (const char of Array.from(text.replace(/\s+/g, ' ').trim())) {
    if (line && measure(line + char) > maxWidth) {
      if (lines.length === maxLines - 1) {
        // The last line that fits, marked as cut.
        lines.push(`${Array.from(line).slice(0, -1).join('')}…`);
        return lines;
      }
      lines.push(line);
      line = '';
    }
    line += char;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The offline image provider: a styled panel for the shot (scene colours, the roles present,
 * the caption when asked). It carries no label: the engine is recorded beside the picture.
 */
export function renderFrame(input: FrameInput): Buffer {
  const family = ensureFonts();
  const { width, height } = input;
  const rnd = seeded(input.scene);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const unit = Math.min(width, height);

  const tone = sceneTone(input.scene);
  const palette = input.palette ?? { saturation: 1, lightness: 0 };
  // The scene's hue, varied a little by the hash so two night shots are not identical.
  let hue = tone ? (tone.hue + (rnd() - 0.5) * 30 + 360) % 360 : rnd() * 360;
  let hue2 = (hue + 40 + rnd() * 100) % 360;
  if (palette.hues) [hue, hue2] = palette.hues;
  const darken = tone?.dark ? -14 : 0;
  // Every colour goes through the style's palette.
  const color = (h: number, s: number, l: number) =>
    hsl(h, clamp(s * palette.saturation, 0, 100), clamp(l + palette.lightness + darken, 4, 96));
  const bg = ctx.createLinearGradient(0, 0, width * rnd(), height);
  bg.addColorStop(0, color(hue, 55, 28));
  bg.addColorStop(1, color(hue2, 60, 55));
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, width, height);

  // Soft scenery: a horizon band and a few translucent circles.
  ctx.fillStyle = color(hue2, 40, 20);
  ctx.globalAlpha = 0.35;
  ctx.fillRect(0, height * (0.62 + rnd() * 0.1), width, height);
  for (let i = 0; i < 6; i++) {
    ctx.globalAlpha = 0.08 + rnd() * 0.12;
    ctx.fillStyle = color((hue + rnd() * 120) % 360, 70, 75);
    ctx.beginPath();
    ctx.arc(rnd() * width, rnd() * height * 0.6, unit * (0.05 + rnd() * 0.2), 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.globalAlpha = 1;

  // Each role: a simple figure (head and body) with its name and a few words of its
  // description, spread across the frame. Its colour comes from its name: the same role looks
  // the same in every shot.
  const roles = (input.roles ?? [])
    .slice(0, 4)
    .map((role) => (typeof role === 'string' ? { name: role } : role));
  roles.forEach(({ name, description }, i) => {
    const r = seeded(`role:${name}`);
    const cx = (width * (i + 1)) / (roles.length + 1);
    const baseY = height * 0.68;
    const head = unit * 0.07;
    ctx.fillStyle = hsl(r() * 360, 45, 62);
    ctx.beginPath();
    ctx.arc(cx, baseY - head * 4.2, head, 0, Math.PI * 2);
    ctx.fill();
    ctx.beginPath();
    ctx.moveTo(cx - head * 1.3, baseY);
    ctx.quadraticCurveTo(cx, baseY - head * 4.8, cx + head * 1.3, baseY);
    ctx.closePath();
    ctx.fill();
    ctx.font = `bold ${Math.round(unit * 0.045)}px "${family}"`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.lineWidth = Math.max(2, unit * 0.006);
    ctx.strokeStyle = 'rgba(0,0,0,0.7)';
    ctx.strokeText(name, cx, baseY + head * 0.4);
    ctx.fillStyle = '#ffffff';
    ctx.fillText(name, cx, baseY + head * 0.4);
    const note = description?.trim();
    if (note) {
      const size = Math.round(unit * 0.028);
      ctx.font = `${size}px "${family}"`;
      const slot = width / (roles.length + 1);
      const [first] = wrapText((t) => ctx.measureText(t).width, note, slot * 0.95, 1);
      const y = baseY + head * 0.4 + unit * 0.055;
      ctx.strokeText(first ?? '', cx, y);
      ctx.fillText(first ?? '', cx, y);
    }
  });

  // A caption box in the upper third, like a comic panel's narration box.
  const caption = input.caption?.trim();
  if (caption) {
    const size = Math.round(unit * 0.05);
    ctx.font = `${size}px "${family}"`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const lines = wrapText((t) => ctx.measureText(t).width, caption, width * 0.78, 3);
    const lineHeight = size * 1.35;
    const boxTop = height * 0.16;
    ctx.fillStyle = 'rgba(255,255,255,0.88)';
    ctx.fillRect(width * 0.08, boxTop, width * 0.84, lines.length * lineHeight + size * 0.8);
    ctx.fillStyle = '#1d1d1f';
    lines.forEach((line, i) => ctx.fillText(line, width / 2, boxTop + size * 0.4 + i * lineHeight));
  }

  // JPEG: 26 to 41 ms a 1080x1920 frame here, PNG is ten times slower and much larger.
  return canvas.toBuffer('image/jpeg', 90);
}

export async function renderFrameToFile(input: FrameInput, outPath: string): Promise<string> {
  await mkdir(path.dirname(outPath), { recursive: true });
  const tmp = `${outPath}.part`;
  await writeFile(tmp, renderFrame(input));
  await rename(tmp, outPath);
  return outPath;
}
