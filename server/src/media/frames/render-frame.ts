import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GlobalFonts, createCanvas } from '@napi-rs/canvas';
import { cjkFonts } from '../fonts';

export const LOCAL_FRAME_LABEL = '本地画面（未配置图像服务）';

export interface FrameInput {
  /** Scene description: its hash picks the colours, so the same scene always looks the same. */
  scene: string;
  /** Names of the roles present in the shot. */
  roles?: string[];
  width: number;
  height: number;
}

let fontsRegistered = false;
function ensureFonts(): string {
  const fonts = cjkFonts();
  if (!fontsRegistered) {
    GlobalFonts.registerFromPath(fonts.regular, fonts.family);
    if (fonts.bold) GlobalFonts.registerFromPath(fonts.bold, fonts.family);
    fontsRegistered = true;
  }
  return fonts.family;
}

/** A small deterministic byte stream from the scene text (no Math.random: frames must repeat). */
function seeded(text: string): () => number {
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

/**
 * The offline image provider: a styled panel for the shot. The caption is not drawn here
 * (ffmpeg burns it with the narration's timing), and the frame says honestly that it is local.
 */
export function renderFrame(input: FrameInput): Buffer {
  const family = ensureFonts();
  const { width, height } = input;
  const rnd = seeded(input.scene);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const unit = Math.min(width, height);

  const hue = rnd() * 360;
  const hue2 = (hue + 40 + rnd() * 100) % 360;
  const bg = ctx.createLinearGradient(0, 0, width * rnd(), height);
  bg.addColorStop(0, hsl(hue, 55, 28));
  bg.addColorStop(1, hsl(hue2, 60, 55));
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, width, height);

  // Soft scenery: a horizon band and a few translucent circles.
  ctx.fillStyle = hsl(hue2, 40, 20);
  ctx.globalAlpha = 0.35;
  ctx.fillRect(0, height * (0.62 + rnd() * 0.1), width, height);
  for (let i = 0; i < 6; i++) {
    ctx.globalAlpha = 0.08 + rnd() * 0.12;
    ctx.fillStyle = hsl((hue + rnd() * 120) % 360, 70, 75);
    ctx.beginPath();
    ctx.arc(rnd() * width, rnd() * height * 0.6, unit * (0.05 + rnd() * 0.2), 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.globalAlpha = 1;

  // Each role: a simple figure (head and body) with its name label, spread across the frame.
  const roles = (input.roles ?? []).slice(0, 4);
  roles.forEach((name, i) => {
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
  });

  // The honest label, small, top-centre and inset: zoompan crops up to about 13% of a side
  // (zoom 1.15, pans), and the label must stay visible in every shot.
  const labelSize = Math.round(unit * 0.03);
  ctx.font = `${labelSize}px "${family}"`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const pad = labelSize * 0.6;
  const tw = ctx.measureText(LOCAL_FRAME_LABEL).width;
  const top = height * 0.08;
  ctx.fillStyle = 'rgba(0,0,0,0.45)';
  ctx.fillRect(width / 2 - tw / 2 - pad, top, tw + pad * 2, labelSize + pad * 1.4);
  ctx.fillStyle = 'rgba(255,255,255,0.9)';
  ctx.fillText(LOCAL_FRAME_LABEL, width / 2, top + pad * 0.7);

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
