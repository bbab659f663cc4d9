import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { ensureFonts } from './render-frame';

export interface EndCardInput {
  /** The product or book the video sells: the card's headline. */
  title: string;
  /** The call to action, drawn as a button. */
  callToAction: string;
  width: number;
  height: number;
}

/**
 * Lines of `text` that fit `maxWidth` at the context's current font, breaking anywhere for CJK
 * and at spaces for Latin words. Answers null when it needs more than `maxLines`.
 */
function fitLines(
  ctx: SKRSContext2D,
  text: string,
  maxWidth: number,
  maxLines: number,
): string[] | null {
  const lines: string[] = [];
  let line = '';
  for (const ch of Array.from(text)) {
    const next = line + ch;
    if (line && ctx.measureText(next).width > maxWidth) {
      const space = line.lastIndexOf(' ');
      if (ch !== ' ' && /\w/.test(ch) && space > 0) {
        lines.push(line.slice(0, space));
        line = line.slice(space + 1) + ch;
      } else {
        lines.push(line);
        line = ch === ' ' ? '' : ch;
      }
    } else {
      line = next;
    }
  }
  if (line.trim()) lines.push(line);
  const clean = lines.map((l) => l.trim()).filter(Boolean);
  return clean.length <= maxLines ? clean : null;
}

/** The largest font size (down to `min`) at which the text fits; the smallest one clips. */
function fitText(
  ctx: SKRSContext2D,
  text: string,
  font: (size: number) => string,
  sizes: { max: number; min: number },
  maxWidth: number,
  maxLines: number,
): { size: number; lines: string[] } {
  for (let size = sizes.max; size > sizes.min; size = Math.floor(size * 0.9)) {
    ctx.font = font(size);
    const lines = fitLines(ctx, text, maxWidth, maxLines);
    if (lines) return { size, lines };
  }
  ctx.font = font(sizes.min);
  const lines = fitLines(ctx, text, maxWidth, Number.MAX_SAFE_INTEGER) ?? [text];
  const kept = lines.slice(0, maxLines);
  if (lines.length > maxLines) kept[maxLines - 1] = `${kept[maxLines - 1]?.slice(0, -1) ?? ''}…`;
  return { size: sizes.min, lines: kept };
}

function roundedRect(
  ctx: SKRSContext2D,
  x: number,
  y: number,
  w: number,
  h: number,
  r: number,
): void {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/**
 * The marketing video's last picture: the product's name and the call to action as a button
 * over a quiet dark gradient, so it reads as an ending whatever the user's pictures were.
 * Everything sits in the middle 70% of the width and above the caption band: the composer's
 * motion crops up to about 13% of a side and burns the spoken call as a caption at the bottom.
 */
export function renderEndCard(input: EndCardInput): Buffer {
  const family = ensureFonts();
  const { width, height } = input;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const unit = Math.min(width, height);

  const bg = ctx.createLinearGradient(0, 0, width, height);
  bg.addColorStop(0, '#1b1f3b');
  bg.addColorStop(1, '#3a1f4d');
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, width, height);
  // A soft glow behind the headline draws the eye to the centre.
  const glow = ctx.createRadialGradient(
    width / 2,
    height * 0.42,
    0,
    width / 2,
    height * 0.42,
    unit * 0.7,
  );
  glow.addColorStop(0, 'rgba(255, 170, 120, 0.22)');
  glow.addColorStop(1, 'rgba(255, 170, 120, 0)');
  ctx.fillStyle = glow;
  ctx.fillRect(0, 0, width, height);

  const maxWidth = width * 0.7;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';

  const title = fitText(
    ctx,
    input.title.trim(),
    (size) => `bold ${size}px "${family}"`,
    { max: Math.round(unit * 0.11), min: Math.round(unit * 0.05) },
    maxWidth,
    3,
  );
  const lineHeight = title.size * 1.3;
  const titleTop = height * 0.4 - (lineHeight * title.lines.length) / 2;
  ctx.fillStyle = '#ffffff';
  ctx.shadowColor = 'rgba(0, 0, 0, 0.35)';
  ctx.shadowBlur = unit * 0.02;
  title.lines.forEach((line, i) =>
    ctx.fillText(line, width / 2, titleTop + lineHeight * (i + 0.5)),
  );
  ctx.shadowBlur = 0;
  ctx.shadowColor = 'transparent';

  // A thin accent rule between the name and the button.
  const ruleY = titleTop + lineHeight * title.lines.length + unit * 0.04;
  ctx.fillStyle = 'rgba(255, 190, 150, 0.8)';
  ctx.fillRect(width / 2 - unit * 0.08, ruleY, unit * 0.16, Math.max(2, unit * 0.006));

  const cta = fitText(
    ctx,
    input.callToAction.trim(),
    (size) => `bold ${size}px "${family}"`,
    { max: Math.round(unit * 0.065), min: Math.round(unit * 0.035) },
    maxWidth * 0.85,
    1,
  );
  ctx.font = `bold ${cta.size}px "${family}"`;
  const label = cta.lines[0] ?? '';
  const buttonW = Math.min(maxWidth, ctx.measureText(label).width + cta.size * 2.4);
  const buttonH = cta.size * 2.1;
  const buttonX = (width - buttonW) / 2;
  const buttonY = ruleY + unit * 0.07;
  const fill = ctx.createLinearGradient(buttonX, buttonY, buttonX + buttonW, buttonY + buttonH);
  fill.addColorStop(0, '#ff8a4c');
  fill.addColorStop(1, '#ff5e62');
  ctx.fillStyle = fill;
  ctx.shadowColor = 'rgba(0, 0, 0, 0.3)';
  ctx.shadowBlur = unit * 0.025;
  roundedRect(ctx, buttonX, buttonY, buttonW, buttonH, buttonH / 2);
  ctx.fill();
  ctx.shadowBlur = 0;
  ctx.shadowColor = 'transparent';
  ctx.fillStyle = '#ffffff';
  ctx.fillText(label, width / 2, buttonY + buttonH / 2);

  // JPEG like the other frames: the composer re-encodes it anyway.
  return canvas.toBuffer('image/jpeg', 92);
}

/** Writes the end card under a temporary name and renames it when whole. */
export async function renderEndCardToFile(input: EndCardInput, outPath: string): Promise<string> {
  await mkdir(path.dirname(outPath), { recursive: true });
  const tmp = `${outPath}.part`;
  await writeFile(tmp, renderEndCard(input));
  await rename(tmp, outPath);
  return outPath;
}
