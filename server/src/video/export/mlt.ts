import path from 'node:path';
import { motionAt } from '../engine/compose';
import { DUCKING, type Timeline, type TimelineSegment } from './timeline';

/**
 * An MLT XML project (MLT 7: the format Shotcut opens as its own project, and that melt, the
 * engine under Shotcut and Kdenlive, renders) of a timeline, laid out as Shotcut lays out its
 * own projects so that the creator finds ordinary clips, tracks and filters:
 *
 * - a profile of the render's size at 30 fps;
 * - a black `background` track (Shotcut's bottom track; the audio tracks mix into it);
 * - V1: every segment at its frames. A still is an image clip with a "Size, Position & Rotate"
 *   filter (`affine`) whose rectangle, keyframed on the first and last frame, makes the Ken
 *   Burns motion of the render (compose.ts `motionAt`); a clip is its source window, repeated
 *   back to back when the render looped it, or followed by its last frame frozen;
 * - A1: the narration; A2: the music, repeated over the whole video, with a Gain filter at the
 *   render's level that dips under the voice during the captions (the render ducks it with a
 *   compressor keyed on the voice);
 * - the captions as the render's own ASS file, drawn by libass over the whole project
 *   (`avfilter.subtitles`, the filter Kdenlive stores its subtitle track in).
 *
 * Media paths are relative to the .mlt file's folder: MLT resolves a relative `resource`
 * against it, so the unzipped folder works wherever it is put.
 */

type Size = { width: number; height: number };

export interface MltFiles {
  /** Each segment's file, in the timeline's order, relative to the .mlt file's folder. */
  segments: string[];
  narration: string;
  music?: string;
  /** The captions as ASS (engine/captions.ts `toAss`); none when the render had no captions. */
  captions?: string;
  /**
   * Each segment's picture size in pixels (a still's, and a clip's frame size when known), so
   * the picture covers the frame as the render did; null when unknown (then a centred "Crop:
   * Source" does it, within a pixel or two).
   */
  imageSizes: Array<Size | null>;
  /**
   * A clip's whole length in ms, per segment (null for stills and when unknown): where a loop
   * of a window that runs to the end of the file repeats. Without it such a clip plays once and
   * holds its last frame.
   */
  clipDurationsMs?: Array<number | null>;
  /** The music file's length in ms: where it repeats. Without it, it plays once. */
  musicDurationMs?: number;
}

/** A clip window shorter than this is the whole rest of the file (compose-segments.ts). */
const MIN_WINDOW_MS = 100;
/** How far the music dips under the voice, and its ramps (timeline.ts DUCKING). */
const DUCKED_SHARE = DUCKING.share;
const DUCK_ATTACK_MS = DUCKING.attackMs;
const DUCK_RELEASE_MS = DUCKING.releaseMs;

/** Text and attribute values, escaped for XML (paths and titles may hold any character). */
function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

type Attributes = Record<string, string | number | undefined>;

/** An element, its attributes and its children, indented two spaces a level. */
function element(name: string, attributes: Attributes, children: string[] = []): string {
  const attrs = Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
    .join('');
  if (children.length === 0) return `<${name}${attrs}/>`;
  const inner = children.map((child) => child.replace(/^/gm, '  ')).join('\n');
  return `<${name}${attrs}>\n${inner}\n</${name}>`;
}

function property(name: string, value: string | number): string {
  return `<property name="${escapeXml(name)}">${escapeXml(String(value))}</property>`;
}

function properties(values: Record<string, string | number | undefined>): string[] {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => property(name, value));
}

/** A number as MLT reads it (LC_NUMERIC=C): a few decimals, no exponent, no "-0". */
function num(value: number): string {
  const rounded = Math.round(value * 1000) / 1000;
  return String(rounded === 0 ? 0 : rounded);
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}
const rectValue = (r: Rect) => `${num(r.x)} ${num(r.y)} ${num(r.w)} ${num(r.h)} 1`;

/**
 * Where the whole picture goes so that it covers the frame and shows what the render showed.
 * The render scales the picture to cover the frame, crops the overflow evenly, and zoompan
 * shows a window of `1/zoom` of that at `left`/`top` (shares of the cropped picture) scaled up
 * to the frame. Drawing the uncropped picture `zoom` times its covering size, moved so that
 * window's corner lands on the frame's, is the same picture: the overflow falls outside.
 * The rectangle has the picture's aspect, so `affine` (fill on, distort off) fills it exactly.
 * Unknown size: the picture arrives cropped to the frame's aspect (`coverFilters`), and the
 * rectangle is the frame's.
 */
function coverRect(
  frame: Size,
  picture: Size | null,
  view: { zoom: number; left: number; top: number },
): Rect {
  const { width: W, height: H } = frame;
  const scale = picture ? Math.max(W / picture.width, H / picture.height) : 1;
  const coverW = picture ? picture.width * scale : W;
  const coverH = picture ? picture.height * scale : H;
  const { zoom, left, top } = view;
  return {
    x: -zoom * ((coverW - W) / 2 + left * W),
    y: -zoom * ((coverH - H) / 2 + top * H),
    w: zoom * coverW,
    h: zoom * coverH,
  };
}

/**
 * The filters that put a picture (a still, a clip's frames) on the frame through `rect`:
 * Shotcut's "Size, Position & Rotate" (`affine`, Kdenlive's "Position and Zoom"), after a
 * centred "Crop: Source" when the picture's size is unknown. MLT crops in even pixels, so
 * that crop can miss the frame's aspect by a pixel or two: the rectangle then distorts the
 * picture by as much (under 1%) rather than leave thin black bars.
 */
function coverFilters(id: string, picture: Size | null, rect: string, frames?: number): string[] {
  const crop = element('filter', { id: `${id}-crop` }, [
    // Shotcut knows "Crop: Source" by its service alone (the filter has no Shotcut id).
    ...properties({ mlt_service: 'crop', center: 1 }),
  ]);
  const place = element(
    'filter',
    { id: `${id}-place`, ...(frames === undefined ? {} : { in: 0, out: frames - 1 }) },
    [
      ...properties({
        mlt_service: 'affine',
        'shotcut:filter': 'affineSizePosition',
        background: 'color:#00000000',
        'transition.fill': 1,
        'transition.distort': picture ? 0 : 1,
        'transition.halign': 'center',
        'transition.valign': 'middle',
        'transition.rect': rect,
      }),
    ],
  );
  return picture ? [place] : [crop, place];
}

export function mltProject(timeline: Timeline, files: MltFiles): string {
  const { fps } = timeline;
  const frame = { width: timeline.width, height: timeline.height };
  const totalFrames = timeline.segments.reduce(
    (end, s) => Math.max(end, s.startFrame + s.frames),
    0,
  );
  const last = Math.max(0, totalFrames - 1);
  const framesOf = (ms: number) => Math.round((ms * fps) / 1000);
  const caption = (file: string) => path.posix.basename(file);

  const producers: string[] = [];
  const videoEntries: string[] = [];
  let at = 0;

  for (const [i, segment] of timeline.segments.entries()) {
    const file = files.segments[i];
    if (file === undefined) throw new Error(`segment ${i} has no file`);
    // The render leaves no gap between segments; should a timeline ever have one, a blank
    // keeps every later segment at its frame.
    if (segment.startFrame > at)
      videoEntries.push(element('blank', { length: segment.startFrame - at }));
    at = segment.startFrame + segment.frames;
    const picture = files.imageSizes[i] ?? null;
    const id = `${segment.kind === 'image' ? 'shot' : 'clip'}${i + 1}`;
    if (segment.kind === 'image') {
      producers.push(stillProducer(id, file, segment, picture));
      videoEntries.push(element('entry', { producer: id, in: 0, out: segment.frames - 1 }));
    } else {
      const clip = clipPlacement(segment, files.clipDurationsMs?.[i] ?? null, framesOf);
      producers.push(clipProducer(id, file, clip.length, picture));
      videoEntries.push(...clip.entries(id));
    }
  }

  function stillProducer(
    id: string,
    file: string,
    segment: TimelineSegment,
    picture: Size | null,
  ): string {
    const motion = segment.motion ?? 'zoom-in';
    const lastFrame = segment.frames - 1;
    // zoompan's progress is frame / (frames - 1): the first and the last frame are exact
    // keyframes, and every rectangle between is linear in it (zoom and pans both), as MLT's
    // `=` keyframes interpolate.
    const from = rectValue(coverRect(frame, picture, motionAt(motion, 0)));
    const to = rectValue(coverRect(frame, picture, motionAt(motion, 1)));
    const rect = lastFrame > 0 ? `0=${from};${lastFrame}=${to}` : from;
    return element('producer', { id }, [
      ...properties({
        resource: file,
        'shotcut:caption': caption(file),
        // motion names what the render did, for whoever reads the project.
        'kol:motion': motion,
      }),
      ...coverFilters(id, picture, rect, segment.frames),
    ]);
  }

  function clipProducer(id: string, file: string, length: number, picture: Size | null): string {
    const rect = rectValue(coverRect(frame, picture, { zoom: 1, left: 0, top: 0 }));
    return element('producer', { id }, [
      ...properties({
        resource: file,
        'shotcut:caption': caption(file),
        // At least as long as the frames the entries read: a clip whose last frame is held
        // reads past its end (the file then gives its last frame), and an entry past a
        // producer's length would be cut short, moving every later segment.
        length,
        eof: 'pause',
        // The render uses a clip's picture only: its own sound is not in the video.
        audio_index: -1,
      }),
      ...coverFilters(id, picture, rect),
    ]);
  }

  const narrationId = 'narration';
  producers.push(
    element('producer', { id: narrationId }, [
      ...properties({ resource: files.narration, 'shotcut:caption': caption(files.narration) }),
    ]),
  );

  const music = timeline.music && files.music ? { ...timeline.music, file: files.music } : null;
  if (music) {
    producers.push(
      element('producer', { id: 'music' }, [
        ...properties({
          resource: music.file,
          'shotcut:caption': caption(music.file),
          eof: 'pause',
        }),
      ]),
    );
  }

  const tracks: Array<{ id: string; name: string; audio: boolean; body: string[] }> = [];
  tracks.push({
    id: 'video',
    name: 'V1',
    audio: false,
    body: videoEntries,
  });
  // The narration from the start: an entry longer than the file ends with the file.
  tracks.push({
    id: 'voice',
    name: 'A1',
    audio: true,
    body: [element('entry', { producer: narrationId, in: 0, out: last })],
  });
  if (music) {
    const loopFrames = files.musicDurationMs ? framesOf(files.musicDurationMs) : 0;
    const entries: string[] = [];
    if (loopFrames > 0) {
      for (let from = 0; from < totalFrames; from += loopFrames) {
        const n = Math.min(loopFrames, totalFrames - from);
        entries.push(element('entry', { producer: 'music', in: 0, out: n - 1 }));
      }
    } else {
      entries.push(element('entry', { producer: 'music', in: 0, out: last }));
    }
    tracks.push({
      id: 'music-track',
      name: 'A2',
      audio: true,
      body: [musicGainFilter(music.volume), ...entries],
    });
  }

  /**
   * Shotcut's "Gain / Volume" on the whole music track (so its keyframes are timeline frames):
   * the render's level, dipping by DUCKED_SHARE while the captions (the voice) run, with the
   * compressor's attack and release as ramps; two cues closer than those stay dipped.
   */
  function musicGainFilter(volume: number): string {
    const base = 20 * Math.log10(Math.max(volume, 1e-4));
    const low = base + 20 * Math.log10(DUCKED_SHARE);
    const attack = Math.max(1, framesOf(DUCK_ATTACK_MS));
    const release = Math.max(1, framesOf(DUCK_RELEASE_MS));
    const spans: Array<[number, number]> = [];
    for (const cue of [...timeline.cues].sort((a, b) => a.startMs - b.startMs)) {
      const from = Math.max(0, framesOf(cue.startMs));
      const to = Math.min(last, framesOf(cue.endMs));
      if (to <= from) continue;
      const previous = spans[spans.length - 1];
      if (previous && from - previous[1] <= attack + release)
        previous[1] = Math.max(previous[1], to);
      else spans.push([from, to]);
    }
    // Spans are further apart than a ramp down and up, so the keyframes only move forward;
    // one at the frame of the previous (a dip from the very first frame) replaces it.
    const keys: Array<[number, number]> = [];
    const key = (at: number, db: number) => {
      const previous = keys[keys.length - 1];
      if (previous && at <= previous[0]) previous[1] = db;
      else keys.push([at, db]);
    };
    key(0, base);
    for (const [from, to] of spans) {
      if (from > attack) key(from - attack, base);
      key(from, low);
      key(to, low);
      if (to + release <= last) key(to + release, base);
    }
    const level = keys.map(([at, db]) => `${at}=${num(db)}`).join(';');
    return element('filter', { id: 'music-gain' }, [
      ...properties({ mlt_service: 'volume', 'shotcut:filter': 'audioGain', level }),
    ]);
  }

  const ratio = gcd(frame.width, frame.height);
  const title = `KOL Studio ${timeline.aspect} ${frame.width}x${frame.height}`;
  const profile = element('profile', {
    description: `${frame.width}x${frame.height} ${fps} fps`,
    width: frame.width,
    height: frame.height,
    progressive: 1,
    sample_aspect_num: 1,
    sample_aspect_den: 1,
    display_aspect_num: frame.width / ratio,
    display_aspect_den: frame.height / ratio,
    frame_rate_num: fps,
    frame_rate_den: 1,
    // MLT's own rule for a picture of unknown colour space: BT.601 up to 576 lines, BT.709
    // above. A clip the other way round is converted, except in a held frame (`freeze` drops
    // the frame's colour space), whose colours then shift a little.
    colorspace: Math.max(frame.width, frame.height) > 576 ? 709 : 601,
  });

  const background = [
    element('producer', { id: 'black', in: 0, out: last }, [
      ...properties({
        length: totalFrames,
        eof: 'pause',
        resource: '#000000',
        mlt_service: 'color',
      }),
    ]),
    element('playlist', { id: 'background' }, [
      element('entry', { producer: 'black', in: 0, out: last }),
    ]),
  ];

  const playlists = tracks.map((track) =>
    element('playlist', { id: track.id }, [
      property(track.audio ? 'shotcut:audio' : 'shotcut:video', 1),
      property('shotcut:name', track.name),
      ...track.body,
    ]),
  );

  const captions = files.captions
    ? [
        element('filter', { id: 'captions' }, [
          ...properties({
            mlt_service: 'avfilter.subtitles',
            // Kdenlive marks its subtitle track's filter so; Shotcut keeps it as it is.
            internal_added: 237,
            // MLT reads this path against the project's folder, as it does `resource`. The ASS
            // names its font (Noto Sans SC): libass finds it among the machine's fonts, or
            // substitutes another CJK face. (`av.fontsdir` would be read against the folder
            // the editor runs in, not the project's, so the project does not name one.)
            'av.filename': files.captions,
          }),
        ]),
      ]
    : [];

  const tractor = element('tractor', { id: 'timeline', title, in: 0, out: last }, [
    ...properties({ shotcut: 1, 'shotcut:projectAudioChannels': 2 }),
    element('track', { producer: 'background' }),
    ...tracks.map((track) =>
      element('track', { producer: track.id, hide: track.audio ? 'video' : undefined }),
    ),
    // Every audio track added into the bottom one, as Shotcut does: without a mix the tractor
    // would play the top track's sound alone.
    ...tracks.flatMap((track, i) =>
      track.audio
        ? [
            element('transition', { id: `mix-${track.id}` }, [
              ...properties({
                mlt_service: 'mix',
                a_track: 0,
                b_track: i + 1,
                always_active: 1,
                sum: 1,
              }),
            ]),
          ]
        : [],
    ),
    ...captions,
  ]);

  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    element('mlt', { LC_NUMERIC: 'C', version: '7.0.0', title }, [
      profile,
      ...background,
      ...producers,
      ...playlists,
      tractor,
    ]),
    '',
  ].join('\n');
}

/**
 * How a clip segment reads its file, as compose-segments.ts `videoInput` renders it: the window
 * from the start it asked for; when that is shorter than the segment, the window again and
 * again (a loop) or its last frame frozen (a clip that simply ends).
 */
function clipPlacement(
  segment: TimelineSegment,
  fileMs: number | null,
  framesOf: (ms: number) => number,
): { length: number; entries: (id: string) => string[] } {
  const { frames } = segment;
  const known = fileMs !== null && fileMs >= MIN_WINDOW_MS;
  const startMs = Math.max(0, segment.sourceStartMs ?? 0);
  const start = known ? Math.min(startMs, fileMs - MIN_WINDOW_MS) : startMs;
  const end = known ? Math.min(fileMs, segment.sourceEndMs ?? fileMs) : segment.sourceEndMs;
  const fileFrames = known ? framesOf(fileMs) : 0;
  const first = framesOf(start);
  // Unknown window (no end asked, the file's length unknown): it plays on from its start,
  // and past the file's end melt gives its last frame: the hold, though not a loop.
  if (end === undefined) {
    const length = first + frames;
    return {
      length,
      entries: (id) => [element('entry', { producer: id, in: first, out: first + frames - 1 })],
    };
  }
  const window = Math.max(1, framesOf(Math.max(MIN_WINDOW_MS, end - start)));
  if (window >= frames) {
    return {
      length: Math.max(fileFrames, first + frames),
      entries: (id) => [element('entry', { producer: id, in: first, out: first + frames - 1 })],
    };
  }
  const windowOut = first + window - 1;
  if (segment.loop) {
    return {
      length: Math.max(fileFrames, first + window),
      entries: (id) => {
        const entries: string[] = [];
        for (let from = 0; from < frames; from += window) {
          const n = Math.min(window, frames - from);
          entries.push(element('entry', { producer: id, in: first, out: first + n - 1 }));
        }
        return entries;
      },
    };
  }
  // The hold: the window, then its last frame for the rest of the segment. The `freeze` filter
  // (Kdenlive's "Freeze") on that second entry shows the entry's first frame throughout. It is
  // on the entry, not the producer: there it would freeze the window too (and melt 7.12 was
  // seen to hang on a producer's freeze when the entry did not start at its first frame).
  const hold = frames - window;
  return {
    length: Math.max(fileFrames, windowOut + hold + 1),
    entries: (id) => [
      element('entry', { producer: id, in: first, out: windowOut }),
      element('entry', { producer: id, in: windowOut, out: windowOut + hold - 1 }, [
        element('filter', { id: `${id}-hold` }, [
          ...properties({ mlt_service: 'freeze', frame: 0, freeze_after: 0, freeze_before: 0 }),
        ]),
      ]),
    ],
  };
}
