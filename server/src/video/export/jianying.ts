import { randomUUID } from 'node:crypto';
import { MUSIC_VOLUME_DEFAULT } from '@kol/shared-sdk/contracts';
import { captionCues, captionMetrics } from '../engine/captions';
import { motionAt } from '../engine/compose';
import { DUCKING, type Timeline } from './timeline';

/**
 * A 剪映 (JianYing; CapCut abroad) draft of a timeline: `draft_content.json` (also written as
 * `draft_info.json`, the name macOS and 剪映 6+ read) and `draft_meta_info.json`, in the format
 * the app itself writes, as documented by the open-source draft libraries (docs/jianying-draft-
 * format.md names the source of every field). All times are integer microseconds; positions
 * are in half-canvas units from the centre, +y up; a picture's scale 1 fits it in the canvas.
 */

/** A media file of the draft, in its `Resources/` folder. */
export interface DraftMedia {
  /** File name inside `Resources/`. */
  name: string;
  kind: 'photo' | 'video' | 'audio';
  /** Pixels (0 for audio). */
  width: number;
  height: number;
  /** The file's own length; stills have none (the app gives them three hours). */
  durationMs: number;
}

export interface JianyingInput {
  timeline: Timeline;
  /** The draft's folder name, as it will sit in the drafts folder. */
  draftName: string;
  /** The creator's drafts folder (their `draftPath`): 剪映 resolves media by absolute path. */
  draftsDir: string;
  /** The file each segment shows, in the timeline's order. */
  segmentMedia: DraftMedia[];
  narration: DraftMedia;
  music?: DraftMedia;
  /** The cover's file name beside the JSON files (`draft_cover.jpg`), when there is one. */
  cover?: string;
  now?: Date;
}

export interface JianyingDraft {
  content: DraftContent;
  meta: Record<string, unknown>;
}

/** The parts of draft_content.json the tests and the service read; the rest is app data. */
export interface DraftContent {
  canvas_config: { width: number; height: number; ratio: string };
  duration: number;
  fps: number;
  materials: Record<string, Array<Record<string, unknown> & { id: string }>>;
  tracks: DraftTrack[];
  [field: string]: unknown;
}

export interface DraftTrack {
  id: string;
  type: 'video' | 'audio' | 'text';
  segments: DraftSegment[];
  [field: string]: unknown;
}

export interface DraftSegment {
  id: string;
  material_id: string;
  target_timerange: { start: number; duration: number };
  source_timerange: { start: number; duration: number } | null;
  volume: number;
  clip: {
    scale: { x: number; y: number };
    transform: { x: number; y: number };
    [field: string]: unknown;
  } | null;
  common_keyframes: Array<{
    property_type: string;
    keyframe_list: Array<{ time_offset: number; values: number[] }>;
  }>;
  extra_material_refs: string[];
  [field: string]: unknown;
}

/** Stills in 剪映 are materials of three hours (every source and app-written draft agree). */
const PHOTO_MATERIAL_US = 10_800_000_000;
/** 剪映's own schema markers of a 5.9 draft, the last plaintext line (docs §1, §2). */
const PLATFORM = { app_id: 3704, app_source: 'lv', app_version: '5.9.0', os: 'windows' };
/** The music's dip under the voice (timeline.ts DUCKING), in this format's microseconds. */
const DUCKED_SHARE = DUCKING.share;
const DUCK_ATTACK_US = DUCKING.attackMs * 1000;
const DUCK_RELEASE_US = DUCKING.releaseMs * 1000;

const id = () => randomUUID().toUpperCase();
const us = (ms: number) => Math.round(ms * 1000);
const round = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * The path 剪映 reads a media file at: absolute, in the draft's own folder once the creator
 * unzipped it into their drafts folder (the only form every source agrees works, docs §5).
 * Forward slashes, as the app itself writes them on Windows too.
 */
export function draftMediaPath(draftsDir: string, draftName: string, file: string): string {
  const root = draftsDir.replace(/\\/g, '/').replace(/\/+$/, '');
  return `${root}/${draftName}/Resources/${file}`;
}

export function jianyingDraft(input: JianyingInput): JianyingDraft {
  const { timeline } = input;
  const W = timeline.width;
  const H = timeline.height;
  const fps = timeline.fps;
  /** A frame's time in µs, each boundary computed once (durations are differences). */
  const frameUs = (frame: number) => Math.round((frame * 1_000_000) / fps);
  const totalUs = frameUs(
    timeline.segments.reduce((end, s) => Math.max(end, s.startFrame + s.frames), 0),
  );
  const pathOf = (file: string) => draftMediaPath(input.draftsDir, input.draftName, file);

  const materials: Record<
    string,
    Array<Record<string, unknown> & { id: string }>
  > = emptyMaterials();
  const metaEntries: Array<Record<string, unknown>> = [];
  const nowMs = (input.now ?? new Date()).getTime();

  /** One material per file, however many segments use it (a looped clip, the music). */
  const byFile = new Map<string, string>();
  function mediaMaterial(media: DraftMedia): string {
    const known = byFile.get(media.name);
    if (known) return known;
    const materialId = id();
    const metaId = randomUUID();
    const path = pathOf(media.name);
    if (media.kind === 'audio') {
      materials.audios?.push({
        app_id: 0,
        category_id: '',
        category_name: 'local',
        check_flag: 1,
        copyright_limit_type: 'none',
        duration: us(media.durationMs),
        effect_id: '',
        formula_id: '',
        id: materialId,
        local_material_id: metaId,
        music_id: id(),
        name: media.name,
        path,
        source_platform: 0,
        type: 'extract_music',
        wave_points: [],
      });
    } else {
      materials.videos?.push({
        audio_fade: null,
        category_id: '',
        category_name: 'local',
        check_flag: 63487,
        crop: {
          upper_left_x: 0,
          upper_left_y: 0,
          upper_right_x: 1,
          upper_right_y: 0,
          lower_left_x: 0,
          lower_left_y: 1,
          lower_right_x: 1,
          lower_right_y: 1,
        },
        crop_ratio: 'free',
        crop_scale: 1,
        duration: media.kind === 'photo' ? PHOTO_MATERIAL_US : us(media.durationMs),
        has_audio: false,
        height: media.height,
        width: media.width,
        id: materialId,
        local_material_id: metaId,
        material_id: materialId,
        material_name: media.name,
        media_path: '',
        path,
        type: media.kind,
      });
    }
    metaEntries.push({
      create_time: Math.floor(nowMs / 1000),
      duration: media.kind === 'photo' ? 5_000_000 : us(media.durationMs),
      extra_info: media.name,
      file_Path: path,
      height: media.height,
      width: media.width,
      id: metaId,
      import_time: Math.floor(nowMs / 1000),
      import_time_ms: nowMs * 1000,
      item_source: 1,
      md5: '',
      metetype: media.kind === 'audio' ? 'music' : media.kind,
      roughcut_time_range:
        media.kind === 'photo'
          ? { duration: -1, start: -1 }
          : { duration: us(media.durationMs), start: 0 },
      sub_time_range: { duration: -1, start: -1 },
      type: 0,
    });
    byFile.set(media.name, materialId);
    return materialId;
  }

  /** The companion materials the app gives every video or audio segment (docs §3). */
  function companions(kind: 'video' | 'audio'): string[] {
    const speed = { curve_speed: null, id: id(), mode: 0, speed: 1, type: 'speed' };
    const channel = { audio_channel_mapping: 0, id: id(), is_config_open: false, type: '' };
    const vocal = {
      choice: 0,
      id: id(),
      production_path: '',
      time_range: null,
      type: 'vocal_separation',
    };
    materials.speeds?.push(speed);
    materials.sound_channel_mappings?.push(channel);
    materials.vocal_separations?.push(vocal);
    if (kind === 'audio') return [speed.id, channel.id, vocal.id];
    const canvas = {
      album_image: '',
      blur: 0,
      color: '',
      id: id(),
      image: '',
      image_id: '',
      image_name: '',
      source_platform: 0,
      team_id: '',
      type: 'canvas_color',
    };
    materials.canvases?.push(canvas);
    return [speed.id, canvas.id, channel.id, vocal.id];
  }

  // The pictures and clips, on the main track from 0.
  const videoSegments: DraftSegment[] = [];
  for (const [i, segment] of timeline.segments.entries()) {
    const media = input.segmentMedia[i];
    if (!media) throw new Error(`segment ${i} has no media`);
    const materialId = mediaMaterial(media);
    const start = frameUs(segment.startFrame);
    const end = frameUs(segment.startFrame + segment.frames);
    // Scale 1 fits the picture in the canvas; our render covers the frame with it.
    const fitToCover =
      media.width > 0 && media.height > 0
        ? Math.max(W / media.width, H / media.height) / Math.min(W / media.width, H / media.height)
        : 1;
    if (segment.kind === 'image') {
      const motion = segment.motion ?? 'zoom-in';
      const lastUs = frameUs(segment.frames - 1);
      const at = (p: number) => {
        const { zoom, left, top } = motionAt(motion, p);
        // The shown window's centre, as a share of the picture, moved to the frame's centre.
        const cx = left + 1 / zoom / 2;
        const cy = top + 1 / zoom / 2;
        return {
          scale: round(fitToCover * zoom),
          x: round((0.5 - cx) * zoom * 2),
          y: round((cy - 0.5) * zoom * 2),
        };
      };
      const [from, to] = [at(0), at(1)];
      videoSegments.push(
        visualSegment(
          materialId,
          start,
          end - start,
          { start: 0, duration: end - start },
          from,
          [
            keyframes('KFTypeScaleX', [
              [0, from.scale],
              [lastUs, to.scale],
            ]),
            keyframes('KFTypePositionX', [
              [0, from.x],
              [lastUs, to.x],
            ]),
            keyframes('KFTypePositionY', [
              [0, from.y],
              [lastUs, to.y],
            ]),
          ],
          companions('video'),
        ),
      );
      continue;
    }
    // A clip: its window, repeated back to back while the segment lasts (a loop), or shown
    // once and then repeated too where the render held its last frame (剪映 has no "hold" a
    // draft can say; the creator sees the clip go on rather than a frozen frame).
    const windowStart = us(segment.sourceStartMs ?? 0);
    const windowEnd = Math.min(
      us(segment.sourceEndMs ?? media.durationMs),
      us(media.durationMs) || Number.POSITIVE_INFINITY,
    );
    const windowUs = Math.max(1, windowEnd - windowStart);
    const place = { scale: round(fitToCover), x: 0, y: 0 };
    for (let at = start; at < end; at += windowUs) {
      const duration = Math.min(windowUs, end - at);
      videoSegments.push(
        visualSegment(
          materialId,
          at,
          duration,
          { start: windowStart, duration },
          place,
          [],
          companions('video'),
        ),
      );
    }
  }

  // The narration, cut where the pictures change (one piece per shot: moving a shot's picture
  // and its words together), or per sentence when the whole video is one clip.
  const narrationId = mediaMaterial(input.narration);
  const narrationEnd = Math.min(totalUs, us(input.narration.durationMs));
  const cuts =
    timeline.segments.length > 1
      ? timeline.segments.map((s) => frameUs(s.startFrame))
      : timeline.cues.map((cue) => us(cue.startMs));
  const voiceCuts = [...new Set([0, ...cuts])]
    .filter((t) => t >= 0 && t < narrationEnd)
    .sort((a, b) => a - b);
  const voiceSegments = voiceCuts.map((start, i) => {
    const end = voiceCuts[i + 1] ?? narrationEnd;
    return audioSegment(narrationId, start, end - start, start, 1, [], companions('audio'));
  });

  // The music, looped over the whole video at the render's level, dipping under the voice.
  const musicSegments: DraftSegment[] = [];
  if (timeline.music && input.music && input.music.durationMs > 0) {
    const musicId = mediaMaterial(input.music);
    const volume = timeline.music.volume ?? MUSIC_VOLUME_DEFAULT;
    const loopUs = us(input.music.durationMs);
    const speech = timeline.cues.map((cue) => [us(cue.startMs), us(cue.endMs)] as const);
    for (let at = 0; at < totalUs; at += loopUs) {
      const duration = Math.min(loopUs, totalUs - at);
      musicSegments.push(
        audioSegment(
          musicId,
          at,
          duration,
          0,
          volume,
          [keyframes('KFTypeVolume', duckingKeyframes(speech, at, duration, volume))],
          companions('audio'),
        ),
      );
    }
  }

  // The captions, one text per line as the render burned them, in its size, colour and place.
  const textSegments: DraftSegment[] = [];
  if (timeline.captionStyle !== 'none') {
    const metrics = captionMetrics({ width: W, height: H }, timeline.aspect);
    // The line's middle: the render sets its baseline `marginV` above the bottom edge.
    const middle = H - metrics.marginV - metrics.em / 2;
    const y = round((H / 2 - middle) / (H / 2));
    // 剪映's text size is about the glyph height in hundredths of the canvas' short side
    // (calibrated on a 1080-high canvas: size 15 is 150 px, docs §4).
    const size = round((metrics.em / Math.min(W, H)) * 100 * 1.08);
    const look = CAPTION_LOOKS[timeline.captionStyle];
    for (const cue of captionCues(timeline.cues, timeline.aspect)) {
      const start = us(cue.startMs);
      // A last cue may run a few ms past the video's last frame: not past the draft's end.
      const duration = Math.min(us(cue.endMs), totalUs) - start;
      if (duration <= 0) continue;
      const materialId = id();
      const animation = {
        id: id(),
        type: 'sticker_animation',
        multi_language_current: 'none',
        animations: [],
      };
      materials.material_animations?.push(animation);
      materials.texts?.push({
        id: materialId,
        type: 'text',
        content: JSON.stringify({
          styles: [
            {
              fill: {
                alpha: 1,
                content: { render_type: 'solid', solid: { alpha: 1, color: look.color } },
              },
              range: [0, cue.text.length],
              size,
              bold: true,
              italic: false,
              underline: false,
              strokes: [{ content: { solid: { alpha: 1, color: [0, 0, 0] } }, width: 0.08 }],
            },
          ],
          text: cue.text,
        }),
        typesetting: 0,
        alignment: 1,
        letter_spacing: 0,
        line_spacing: 0.02,
        line_feed: 1,
        line_max_width: 0.9,
        force_apply_line_max_width: false,
        // 1 fill, 2 font, 4 size, 8 stroke, 16 background (docs §4).
        check_flag: look.box ? 31 : 15,
        ...(look.box
          ? { background_style: 1, background_color: '#000000', background_alpha: 0.62 }
          : {}),
        global_alpha: 1,
      });
      textSegments.push({
        ...segmentBase(materialId, start, duration, null, [animation.id]),
        clip: clip(1, 0, y),
        uniform_scale: { on: true, value: 1 },
        render_index: 15000,
      });
    }
  }

  const tracks: DraftTrack[] = [
    track('video', videoSegments),
    track('audio', voiceSegments),
    ...(musicSegments.length > 0 ? [track('audio', musicSegments)] : []),
    ...(textSegments.length > 0 ? [track('text', textSegments)] : []),
  ];

  const content: DraftContent = {
    canvas_config: { width: W, height: H, ratio: 'original' },
    color_space: 0,
    config: {
      adjust_max_index: 1,
      attachment_info: [],
      combination_max_index: 1,
      export_range: null,
      extract_audio_last_index: 1,
      lyrics_recognition_id: '',
      lyrics_sync: true,
      lyrics_taskinfo: [],
      maintrack_adsorb: true,
      material_save_mode: 0,
      original_sound_last_index: 1,
      record_audio_last_index: 1,
      sticker_max_index: 1,
      subtitle_recognition_id: '',
      subtitle_sync: true,
      subtitle_taskinfo: [],
      system_font_list: [],
      video_mute: false,
      zoom_info_params: null,
    },
    cover: null,
    create_time: 0,
    duration: totalUs,
    extra_info: null,
    fps,
    free_render_index_mode_on: false,
    group_container: null,
    id: id(),
    keyframe_graph_list: [],
    keyframes: {
      adjusts: [],
      audios: [],
      effects: [],
      filters: [],
      handwrites: [],
      stickers: [],
      texts: [],
      videos: [],
    },
    last_modified_platform: PLATFORM,
    platform: PLATFORM,
    materials,
    mutable_config: null,
    name: '',
    new_version: '110.0.0',
    relationships: [],
    render_index_track_mode_on: false,
    retouch_cover: null,
    source: 'default',
    static_cover_image_path: '',
    time_marks: null,
    tracks,
    update_time: 0,
    version: 360000,
  };

  const draftsRoot = input.draftsDir.replace(/\\/g, '/').replace(/\/+$/, '');
  const meta = {
    cloud_package_completed_time: '',
    draft_cloud_capcut_purchase_info: '',
    draft_cloud_last_action_download: false,
    draft_cloud_materials: [],
    draft_cloud_purchase_info: '',
    draft_cloud_template_id: '',
    draft_cloud_tutorial_info: '',
    draft_cloud_videocut_purchase_info: '',
    draft_cover: input.cover ?? '',
    draft_deeplink_url: '',
    draft_enterprise_info: {
      draft_enterprise_extra: '',
      draft_enterprise_id: '',
      draft_enterprise_name: '',
      enterprise_material: [],
    },
    draft_fold_path: `${draftsRoot}/${input.draftName}`,
    draft_id: id(),
    draft_is_ai_packaging_used: false,
    draft_is_ai_shorts: false,
    draft_is_ai_translate: false,
    draft_is_article_video_draft: false,
    draft_is_from_deeplink: 'false',
    draft_is_invisible: false,
    draft_materials: [
      { type: 0, value: metaEntries },
      ...[1, 2, 3, 6, 7, 8].map((type) => ({ type, value: [] })),
    ],
    draft_materials_copied_info: [],
    draft_name: input.draftName,
    draft_new_version: '',
    draft_removable_storage_device: '',
    draft_root_path: draftsRoot,
    draft_segment_extra_info: [],
    draft_type: '',
    tm_draft_cloud_completed: '',
    tm_draft_cloud_modified: 0,
    tm_draft_create: nowMs * 1000,
    tm_draft_modified: nowMs * 1000,
    tm_draft_removed: 0,
    tm_duration: totalUs,
  };
  return { content, meta };
}

/** The caption styles as 剪映 text: fill colour (RGB 0..1), and whether a dark box is behind. */
const CAPTION_LOOKS: Record<'classic' | 'yellow' | 'box', { color: number[]; box: boolean }> = {
  classic: { color: [1, 1, 1], box: false },
  // The render's yellow: ASS &H0000E5FF is RGB(255, 229, 0).
  yellow: { color: [1, 229 / 255, 0], box: false },
  box: { color: [1, 1, 1], box: true },
};

/**
 * The music's volume keyframes within one of its segments: its level, dipping to a share of it
 * while the voice speaks (cue by cue), as our render's compressor does.
 */
function duckingKeyframes(
  speech: ReadonlyArray<readonly [number, number]>,
  segmentStart: number,
  duration: number,
  volume: number,
): Array<[number, number]> {
  const low = round(volume * DUCKED_SHARE);
  const points: Array<[number, number]> = [[0, volume]];
  for (const [from, to] of speech) {
    const start = from - segmentStart;
    const end = to - segmentStart;
    if (end <= 0 || start >= duration) continue;
    const last = points[points.length - 1] ?? [0, volume];
    const down = Math.max(last[0] + 1, start);
    if (down + DUCK_ATTACK_US < duration) {
      if (last[1] !== low) {
        points.push([down, volume]);
        points.push([down + DUCK_ATTACK_US, low]);
      }
    } else continue;
    const up = Math.min(duration, end);
    points.push([up, low]);
    if (up + DUCK_RELEASE_US <= duration) points.push([up + DUCK_RELEASE_US, volume]);
  }
  // Two cues closer than the release: no rise in between (the compressor would not rise).
  const merged: Array<[number, number]> = [];
  for (const point of points) {
    const prev = merged[merged.length - 1];
    if (prev && point[0] <= prev[0]) {
      prev[1] = point[1];
      continue;
    }
    merged.push([...point]);
  }
  return merged;
}

function keyframes(property: string, points: Array<[number, number]>) {
  return {
    id: id(),
    material_id: '',
    property_type: property,
    keyframe_list: points.map(([offset, value]) => ({
      id: id(),
      curveType: 'Line',
      graphID: '',
      left_control: { x: 0, y: 0 },
      right_control: { x: 0, y: 0 },
      time_offset: offset,
      values: [value],
    })),
  };
}

function clip(scale: number, x: number, y: number) {
  return {
    alpha: 1,
    flip: { horizontal: false, vertical: false },
    rotation: 0,
    scale: { x: scale, y: scale },
    transform: { x, y },
  };
}

function segmentBase(
  materialId: string,
  start: number,
  duration: number,
  source: { start: number; duration: number } | null,
  refs: string[],
): DraftSegment {
  return {
    id: id(),
    material_id: materialId,
    target_timerange: { start, duration },
    source_timerange: source,
    speed: 1,
    volume: 1,
    reverse: false,
    visible: true,
    is_tone_modify: false,
    last_nonzero_volume: 1,
    cartoon: false,
    clip: null,
    uniform_scale: null,
    hdr_settings: null,
    extra_material_refs: refs,
    common_keyframes: [],
    keyframe_refs: [],
    enable_adjust: false,
    enable_color_correct_adjust: false,
    enable_color_curves: true,
    enable_color_match_adjust: false,
    enable_color_wheels: true,
    enable_lut: false,
    enable_smart_color_adjust: false,
    group_id: '',
    intensifies_audio: false,
    is_placeholder: false,
    render_index: 0,
    track_attribute: 0,
    track_render_index: 0,
    template_id: '',
    template_scene: 'default',
  };
}

function visualSegment(
  materialId: string,
  start: number,
  duration: number,
  source: { start: number; duration: number },
  place: { scale: number; x: number; y: number },
  frames: DraftSegment['common_keyframes'],
  refs: string[],
): DraftSegment {
  return {
    ...segmentBase(materialId, start, duration, source, refs),
    clip: clip(place.scale, place.x, place.y),
    uniform_scale: { on: true, value: 1 },
    hdr_settings: { intensity: 1, mode: 1, nits: 1000 },
    enable_adjust: true,
    enable_lut: true,
    common_keyframes: frames,
  };
}

function audioSegment(
  materialId: string,
  start: number,
  duration: number,
  sourceStart: number,
  volume: number,
  frames: DraftSegment['common_keyframes'],
  refs: string[],
): DraftSegment {
  return {
    ...segmentBase(materialId, start, duration, { start: sourceStart, duration }, refs),
    volume,
    common_keyframes: frames,
  };
}

function track(type: DraftTrack['type'], segments: DraftSegment[]): DraftTrack {
  return { attribute: 0, flag: 0, id: id(), is_default_name: true, name: '', type, segments };
}

function emptyMaterials(): Record<string, Array<Record<string, unknown> & { id: string }>> {
  const names = [
    'ai_translates',
    'audio_balances',
    'audio_effects',
    'audio_fades',
    'audio_track_indexes',
    'audios',
    'beats',
    'canvases',
    'chromas',
    'color_curves',
    'digital_humans',
    'drafts',
    'effects',
    'flowers',
    'green_screens',
    'handwrites',
    'hsl',
    'images',
    'log_color_wheels',
    'loudnesses',
    'manual_deformations',
    'masks',
    'material_animations',
    'material_colors',
    'multi_language_refs',
    'placeholders',
    'plugin_effects',
    'primary_color_wheels',
    'realtime_denoises',
    'shapes',
    'smart_crops',
    'smart_relights',
    'sound_channel_mappings',
    'speeds',
    'stickers',
    'tail_leaders',
    'text_templates',
    'texts',
    'time_marks',
    'transitions',
    'video_effects',
    'video_trackings',
    'videos',
    'vocal_beautifys',
    'vocal_separations',
  ];
  return Object.fromEntries(names.map((name) => [name, []]));
}
