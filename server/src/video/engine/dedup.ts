import { DedupPresets } from '@kol/shared-sdk/contracts';
import { FPS } from './compose';

/**
 * The de-duplication presets of a reverse video (type 3) as ffmpeg filters. Pure functions:
 * what the presets mean is decided here and tested without ffmpeg.
 */

/** A preset out of its range; the message (Chinese) names it. The user's to fix. */
export class DedupRangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DedupRangeError';
  }
}

type NumericPreset = 'cropZoom' | 'speed' | 'colorShift' | 'trimHeadMs' | 'trimTailMs';

/** The range of a numeric preset, read from the contract so there is one source of truth. */
function checked(presets: DedupPresets, key: NumericPreset): number | undefined {
  const value = presets[key];
  if (value === undefined) return undefined;
  const schema = DedupPresets.properties[key] as unknown as {
    minimum: number;
    maximum: number;
    title: string;
  };
  if (!Number.isFinite(value) || value < schema.minimum || value > schema.maximum) {
    throw new DedupRangeError(
      `「${schema.title}」应在 ${schema.minimum} 到 ${schema.maximum} 之间，当前为 ${value}`,
    );
  }
  return value;
}

const FRAME_RATES = [24, 25, 30, 60];
/** How strong the light overlay is: visible as a haze only side by side with the source. */
const OVERLAY_ALPHA = 0.06;

const num = (value: number, digits = 4) => String(Number(value.toFixed(digits)));

/**
 * The filter chain of the presets, applied to frames already scaled to the output `size` at
 * 30 fps (compose-segments' videoFilters); it keeps the size. Defaults give no filter.
 *
 * Time first (speed, frame rate), then the picture (crop and zoom, mirror, colour, overlay):
 * - speed: `setpts` makes the picture play faster or slower (the original sound is dropped
 *   anyway, the narration is new), then the chain ends with `fps=30`.
 * - frameRate: the issue requires 30 fps output for every type, so 24 or 25 is applied as a
 *   resampling step inside the chain: frames are dropped to that cadence and then repeated
 *   back to 30 fps. That changes which source frames appear and when (the de-dup effect, like
 *   a film telecine) while the file stays 30 fps. 30 is the output rate already, and 60 would
 *   need frames that a 30 fps output cannot show, so both give no filter.
 */
export function dedupFilters(
  presets: DedupPresets,
  size: { width: number; height: number },
): string[] {
  const speed = checked(presets, 'speed');
  const cropZoom = checked(presets, 'cropZoom');
  const colorShift = checked(presets, 'colorShift');
  checked(presets, 'trimHeadMs');
  checked(presets, 'trimTailMs');
  if (presets.frameRate !== undefined && !FRAME_RATES.includes(presets.frameRate)) {
    throw new DedupRangeError(
      `「帧率」只能是 ${FRAME_RATES.join('、')}，当前为 ${presets.frameRate}`,
    );
  }

  const filters: string[] = [];
  let retimed = false;
  if (speed !== undefined && speed !== 1) {
    filters.push(`setpts=(PTS-STARTPTS)/${num(speed)}`);
    retimed = true;
  }
  if (presets.frameRate !== undefined && presets.frameRate < FPS) {
    filters.push(`fps=${presets.frameRate}`);
    retimed = true;
  }
  if (cropZoom !== undefined && cropZoom > 0) {
    // Crop the share of each edge (even sizes for the encoder), then scale back to the frame.
    const keep = num(1 - 2 * cropZoom);
    filters.push(
      `crop=trunc(iw*${keep}/2)*2:trunc(ih*${keep}/2)*2`,
      `scale=${size.width}:${size.height}`,
      'setsar=1',
    );
  }
  if (presets.mirror) filters.push('hflip');
  if (colorShift !== undefined && colorShift !== 0) {
    // The hue turns by the degrees; saturation and brightness move a little with it (at most
    // 10 % and 0.3 of hue's -10..10 brightness scale), so a pure hue check does not match.
    const saturation = num(1 + Math.abs(colorShift) / 300);
    const brightness = num(colorShift / 100);
    filters.push(`hue=h=${num(colorShift)}:s=${saturation}:b=${brightness}`);
  }
  if (presets.overlay) {
    filters.push(`drawbox=x=0:y=0:w=iw:h=ih:color=white@${OVERLAY_ALPHA}:t=fill`);
  }
  if (retimed) filters.push(`fps=${FPS}`);
  return filters;
}

/** Shortest source left after trimming: less gives no usable picture to loop. */
export const MIN_SOURCE_MS = 1000;

/**
 * The part of the source the video uses: without the trimmed head and tail. Refused (the
 * user's to fix) when too little is left.
 */
export function sourceWindow(
  presets: DedupPresets,
  sourceMs: number,
): { startMs: number; endMs: number } {
  const head = checked(presets, 'trimHeadMs') ?? 0;
  const tail = checked(presets, 'trimTailMs') ?? 0;
  const window = { startMs: head, endMs: sourceMs - tail };
  if (window.endMs - window.startMs < MIN_SOURCE_MS) {
    throw new DedupRangeError(
      `去掉片头 ${head / 1000} 秒和片尾 ${tail / 1000} 秒后，原视频（${(sourceMs / 1000).toFixed(1)} 秒）剩余不足 ${MIN_SOURCE_MS / 1000} 秒，请减少「去片头」或「去片尾」`,
    );
  }
  return window;
}

/**
 * The segments that fill `narrationMs` of output from the source window played at `speed`:
 * one pass of the window per segment (the last one cut), so a segment never needs more source
 * than its window holds and the trimmed tail is never shown.
 */
export function loopSegments(
  window: { startMs: number; endMs: number },
  speed: number,
  narrationMs: number,
): Array<{ startMs: number; endMs: number; durationMs: number }> {
  // Output time one pass of the window lasts, floored to whole ms so it never overruns.
  const passMs = Math.floor((window.endMs - window.startMs) / speed);
  const segments: Array<{ startMs: number; endMs: number; durationMs: number }> = [];
  for (let at = 0; at < narrationMs; at += passMs) {
    segments.push({ ...window, durationMs: Math.min(passMs, narrationMs - at) });
  }
  return segments;
}
