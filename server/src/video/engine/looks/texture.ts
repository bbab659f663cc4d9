import type { SKRSContext2D } from '@napi-rs/canvas';
import type { FramePalette } from '../frames/render-frame';
import { css, type Theme, type TextureId } from './theme';

/** What a texture draws with: the frame, its theme and a seeded random stream. */
export interface Surface {
  ctx: SKRSContext2D;
  width: number;
  height: number;
  theme: Theme;
  palette: FramePalette | undefined;
  /** 0..1, seeded by the shot: the same shot draws the same texture. */
  rnd: () => number;
}

type Painter = (s: Surface) => void;

const stars: Painter = ({ ctx, width, height, theme, palette, rnd }) => {
  for (let i = 0; i < 140; i++) {
    ctx.fillStyle = css([theme.ink[0], 40, 92], palette, 0.25 + rnd() * 0.6);
    const r = Math.max(1, Math.min(width, height) * 0.0025 * (0.4 + rnd() * 1.4));
    ctx.beginPath();
    ctx.arc(rnd() * width, rnd() * height * 0.7, r, 0, Math.PI * 2);
    ctx.fill();
  }
  // A low moon with a halo: the night's one bright shape.
  const unit = Math.min(width, height);
  const x = width * (0.2 + rnd() * 0.6);
  const y = height * (0.12 + rnd() * 0.12);
  const halo = ctx.createRadialGradient(x, y, 0, x, y, unit * 0.35);
  halo.addColorStop(0, css([45, 60, 85], palette, 0.35));
  halo.addColorStop(1, css([45, 60, 85], palette, 0));
  ctx.fillStyle = halo;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = css([45, 50, 90], palette, 0.9);
  ctx.beginPath();
  ctx.arc(x, y, unit * 0.07, 0, Math.PI * 2);
  ctx.fill();
};

const rain: Painter = ({ ctx, width, height, theme, palette, rnd }) => {
  const unit = Math.min(width, height);
  ctx.lineCap = 'round';
  for (let i = 0; i < 260; i++) {
    const x = rnd() * width * 1.2;
    const y = rnd() * height;
    const len = unit * (0.03 + rnd() * 0.08);
    ctx.strokeStyle = css([theme.ink[0], 25, 88], palette, 0.12 + rnd() * 0.3);
    ctx.lineWidth = Math.max(1, unit * 0.002);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x - len * 0.25, y + len);
    ctx.stroke();
  }
};

const waves: Painter = ({ ctx, width, height, theme, palette, rnd }) => {
  const rows = 14;
  for (let row = 0; row < rows; row++) {
    const y = height * (0.5 + (row / rows) * 0.5);
    const amp = height * (0.006 + row * 0.0016);
    const len = width / (3 + rnd() * 3);
    const phase = rnd() * len;
    ctx.strokeStyle = css(theme.ink, palette, 0.08 + (row / rows) * 0.25);
    ctx.lineWidth = Math.max(1, height * 0.002);
    ctx.beginPath();
    for (let x = -len; x <= width + len; x += width / 90) {
      const yy = y + Math.sin(((x + phase) / len) * Math.PI * 2) * amp;
      if (x === -len) ctx.moveTo(x, yy);
      else ctx.lineTo(x, yy);
    }
    ctx.stroke();
  }
};

const windows: Painter = ({ ctx, width, height, theme, palette, rnd }) => {
  // A skyline of towers along the bottom, each a grid of lit and dark windows.
  let x = -width * 0.02;
  while (x < width) {
    const w = width * (0.1 + rnd() * 0.14);
    const top = height * (0.42 + rnd() * 0.3);
    ctx.fillStyle = css([theme.sky[0], 40, 6], palette, 0.92);
    ctx.fillRect(x, top, w - width * 0.01, height - top);
    const cell = Math.max(4, width * 0.018);
    for (let wy = top + cell; wy < height - cell; wy += cell * 1.6) {
      for (let wx = x + cell * 0.6; wx < x + w - cell * 1.4; wx += cell * 1.4) {
        if (rnd() < 0.45) continue;
        const hue = rnd() < 0.7 ? 45 : theme.accent[0];
        ctx.fillStyle = css([hue, 80, 70], palette, 0.35 + rnd() * 0.5);
        ctx.fillRect(wx, wy, cell * 0.7, cell * 0.9);
      }
    }
    x += w;
  }
};

const lattice: Painter = ({ ctx, width, height, theme, palette }) => {
  // A palace window's lattice, faint, over the whole frame, and eaves along the top.
  const unit = Math.min(width, height);
  const step = unit * 0.09;
  ctx.strokeStyle = css(theme.accent, palette, 0.1);
  ctx.lineWidth = Math.max(1, unit * 0.003);
  for (let x = 0; x <= width + step; x += step) {
    for (let y = 0; y <= height + step; y += step) {
      ctx.strokeRect(x - step * 0.35, y - step * 0.35, step * 0.7, step * 0.7);
    }
  }
  const eave = height * 0.05;
  ctx.fillStyle = css([theme.sky[0], 50, 7], palette, 0.85);
  ctx.beginPath();
  ctx.moveTo(0, 0);
  ctx.lineTo(width, 0);
  ctx.lineTo(width, eave * 0.6);
  ctx.quadraticCurveTo(width / 2, eave * 1.8, 0, eave * 0.6);
  ctx.closePath();
  ctx.fill();
};

const mountains: Painter = ({ ctx, width, height, theme, palette, rnd }) => {
  // Three ridges, lighter far away: an ink landscape.
  for (let layer = 0; layer < 3; layer++) {
    const base = height * (0.55 + layer * 0.14);
    ctx.fillStyle = css(
      [theme.ground[0], theme.ground[1], theme.ground[2] - layer * 7],
      palette,
      0.55 + layer * 0.15,
    );
    ctx.beginPath();
    ctx.moveTo(0, height);
    const peaks = 3 + Math.floor(rnd() * 3);
    for (let i = 0; i <= peaks * 2; i++) {
      const x = (width * i) / (peaks * 2);
      const y = i % 2 === 1 ? base - height * (0.08 + rnd() * 0.14) : base - height * rnd() * 0.03;
      ctx.lineTo(x, y);
    }
    ctx.lineTo(width, height);
    ctx.closePath();
    ctx.fill();
  }
};

const snow: Painter = ({ ctx, width, height, palette, rnd }) => {
  const unit = Math.min(width, height);
  for (let i = 0; i < 180; i++) {
    ctx.fillStyle = css([210, 30, 99], palette, 0.4 + rnd() * 0.5);
    ctx.beginPath();
    ctx.arc(rnd() * width, rnd() * height, unit * (0.002 + rnd() * 0.006), 0, Math.PI * 2);
    ctx.fill();
  }
};

const embers: Painter = ({ ctx, width, height, theme, palette, rnd }) => {
  const glow = ctx.createLinearGradient(0, height * 0.5, 0, height);
  glow.addColorStop(0, css(theme.accent, palette, 0));
  glow.addColorStop(1, css(theme.accent, palette, 0.45));
  ctx.fillStyle = glow;
  ctx.fillRect(0, 0, width, height);
  const unit = Math.min(width, height);
  for (let i = 0; i < 120; i++) {
    ctx.fillStyle = css([20 + rnd() * 30, 95, 60 + rnd() * 20], palette, 0.3 + rnd() * 0.6);
    ctx.beginPath();
    ctx.arc(rnd() * width, height * (0.2 + rnd() * 0.8), unit * (0.002 + rnd() * 0.005), 0, 7);
    ctx.fill();
  }
};

const blinds: Painter = ({ ctx, width, height, theme, palette }) => {
  const step = height * 0.02;
  ctx.fillStyle = css(theme.ink, palette, 0.05);
  for (let y = 0; y < height; y += step * 2) ctx.fillRect(0, y, width, step);
  ctx.fillStyle = css(theme.accent, palette, 0.9);
  ctx.fillRect(0, 0, Math.max(4, width * 0.012), height);
};

const chalk: Painter = ({ ctx, width, height, theme, palette, rnd }) => {
  // Smudges of wiped chalk and a ledge at the bottom of the board.
  ctx.lineCap = 'round';
  for (let i = 0; i < 18; i++) {
    ctx.strokeStyle = css(theme.ink, palette, 0.04 + rnd() * 0.05);
    ctx.lineWidth = Math.min(width, height) * (0.03 + rnd() * 0.05);
    const y = rnd() * height;
    ctx.beginPath();
    ctx.moveTo(rnd() * width * 0.3, y);
    ctx.lineTo(width * (0.6 + rnd() * 0.4), y + (rnd() - 0.5) * height * 0.05);
    ctx.stroke();
  }
  ctx.fillStyle = css([30, 30, 30], palette, 0.8);
  ctx.fillRect(0, height * 0.94, width, height * 0.06);
};

const paper: Painter = ({ ctx, width, height, theme, palette, rnd }) => {
  // Grain, and one broad ink-wash stroke.
  for (let i = 0; i < 900; i++) {
    ctx.fillStyle = css(theme.ink, palette, rnd() * 0.06);
    ctx.fillRect(rnd() * width, rnd() * height, 2, 2);
  }
  const y = height * (0.6 + rnd() * 0.2);
  const wash = ctx.createLinearGradient(0, y - height * 0.1, 0, y + height * 0.1);
  wash.addColorStop(0, css(theme.ink, palette, 0));
  wash.addColorStop(0.5, css(theme.ink, palette, 0.12));
  wash.addColorStop(1, css(theme.ink, palette, 0));
  ctx.fillStyle = wash;
  ctx.fillRect(0, y - height * 0.1, width, height * 0.2);
};

const PAINTERS: Record<TextureId, Painter> = {
  stars,
  rain,
  waves,
  windows,
  lattice,
  mountains,
  snow,
  embers,
  blinds,
  chalk,
  paper,
};

/** The theme's gradient, the textures over it, and a vignette that keeps the eye inside. */
export function paintBackground(surface: Surface, textures: readonly TextureId[]): void {
  const { ctx, width, height, theme, palette } = surface;
  const sky = ctx.createLinearGradient(0, 0, width * 0.3, height);
  sky.addColorStop(0, css(theme.sky, palette));
  sky.addColorStop(1, css(theme.ground, palette));
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, width, height);
  ctx.save();
  for (const texture of textures) PAINTERS[texture](surface);
  ctx.restore();
  const unit = Math.max(width, height);
  const vignette = ctx.createRadialGradient(
    width / 2,
    height / 2,
    unit * 0.25,
    width / 2,
    height / 2,
    unit * 0.75,
  );
  vignette.addColorStop(0, 'rgba(0,0,0,0)');
  vignette.addColorStop(1, 'rgba(0,0,0,0.45)');
  ctx.fillStyle = vignette;
  ctx.fillRect(0, 0, width, height);
}
