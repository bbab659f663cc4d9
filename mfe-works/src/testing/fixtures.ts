import type { WorkDetail, WorkSummary } from '@kol/shared-sdk';
import { usageLimits, workSummary } from '@kol/shared-sdk/testing';

export function demoWorkSummary(workId: number, overrides: Partial<WorkSummary> = {}): WorkSummary {
  return workSummary(workId, {
    title: `文案 ${workId}`,
    excerpt: `第 ${workId} 篇文案的开头`,
    progress: 100,
    updateTime: '2025-11-20 10:00:00',
    ...overrides,
  });
}

export function demoWorkDetail(workId: number, overrides: Partial<WorkDetail> = {}): WorkDetail {
  return {
    workId,
    type: 0,
    flag: 0,
    title: `文案 ${workId}`,
    text: `第 ${workId} 篇文案的全文。`,
    settings: { aspect: '9:16' },
    shots: [],
    coverUrl: '',
    revision: 1,
    updateTime: '2025-11-20 10:00:00',
    ...overrides,
  };
}

// The role fixtures' own import, kept beside them.
import type { Role } from '@kol/shared-sdk';

/** A role of the library (My roles): it belongs to no task. */
export function demoLibraryRole(roleId: number, overrides: Partial<Role> = {}): Role {
  return {
    roleId,
    taskId: null,
    name: `角色 ${roleId}`,
    description: `第 ${roleId} 个角色的外貌`,
    referenceImageUrl: '',
    imageUrls: [],
    seed: 1000 + roleId,
    loraId: null,
    gender: null,
    type: 0,
    revision: 1,
    ...overrides,
  };
}

// The cut editor's fixtures (/work/cut/:id) and their own imports, kept beside them.
import type { CutSegment, CutVideo, UsageLimits, Voice, WorkResult } from '@kol/shared-sdk';

/** A spoken segment showing its own picture (a shot type's cut data). */
export function demoCutSegment(index: number, overrides: Partial<CutSegment> = {}): CutSegment {
  return {
    index,
    text: `第 ${index + 1} 段文案。`,
    materialId: null,
    startMs: 0,
    endMs: 0,
    audioUrl: `/media/cut/segment-${index}.wav`,
    audioDurationMs: 3000 + index * 1000,
    imageUrl: `/media/shots/shot-${index}.png`,
    ...overrides,
  };
}

export function demoCutVideo(workId: number, overrides: Partial<CutVideo> = {}): CutVideo {
  return {
    workId,
    segments: [demoCutSegment(0), demoCutSegment(1), demoCutSegment(2)],
    voiceId: 'zh-female-1',
    musicId: null,
    musicVolume: null,
    finished: false,
    revision: 1,
    ...overrides,
  };
}

/** The work's newest task: a finished video unless told otherwise. */
export function demoCutResult(workId: number, overrides: Partial<WorkResult> = {}): WorkResult {
  return {
    workId,
    taskId: `task-${workId}`,
    state: 'succeeded',
    stage: 'compose',
    progress: 100,
    etaSeconds: null,
    stages: [],
    videoUrl: `/media/works/${workId}/video.mp4`,
    srtUrl: `/media/works/${workId}/video.srt`,
    coverUrl: '',
    durationMs: 12_000,
    error: null,
    ...overrides,
  };
}

export function demoCutVoices(): Voice[] {
  return [
    {
      voiceId: 'zh-female-1',
      name: '温柔女声',
      language: 'zh',
      gender: 'female',
      engine: 'espeak-ng',
      sampleUrl: '',
    },
    {
      voiceId: 'zh-male-1',
      name: '沉稳男声',
      language: 'zh',
      gender: 'male',
      engine: 'espeak-ng',
      sampleUrl: '',
    },
  ];
}

/** Every count of every type at zero, then the given ones. */
export const demoCutLimits = (overrides: Partial<UsageLimits> = {}): UsageLimits =>
  usageLimits(overrides);

// The segment editor's fixtures (/video/cut?workId=: a decompression work) and their own imports.
import type { Material } from '@kol/shared-sdk';
import { demoUser } from '@kol/shared-sdk/testing';

/** A user whose template ids allow decompression videos (template 3). */
export const decompressionUser = () => demoUser({ templateIds: [0, 1, 3] });

/** Two decompression counts and one merge count left. */
export const decompressionLimits = (overrides: Partial<UsageLimits> = {}): UsageLimits =>
  usageLimits({ remainCutCount: 2, remainCutMergeCount: 1, ...overrides });

const loop = (materialId: number, name: string, tagIds: number[]): Material => ({
  materialId,
  name,
  coverUrl: `/media/library/materials/${-materialId}.jpg`,
  videoUrl: `/media/library/materials/${-materialId}.mp4`,
  durationMs: 8000,
  source: 0,
  tagIds,
});

/** The background loops of the library. */
export const DECOMPRESSION_LOOPS: Material[] = [
  loop(-1, '晨雾流光', [1]),
  loop(-3, '深海波光', [1, 2]),
  loop(-4, '星夜', [2]),
];

/** The offline Chinese voice a decompression work is spoken with by default. */
export const DECOMPRESSION_VOICES: Voice[] = [
  {
    voiceId: 'espeak-cmn-f',
    name: '普通话女声',
    language: 'zh',
    gender: 'female',
    engine: 'espeak-ng',
    sampleUrl: '',
  },
];

/** A decompression work's cut data: two sentences over a loop, spoken or not. */
export function demoDecompressionCut(
  workId: number,
  spoken = true,
  overrides: Partial<CutVideo> = {},
): CutVideo {
  const segment = (index: number, text: string): CutSegment => ({
    index,
    text,
    materialId: -1,
    startMs: 0,
    endMs: 8000,
    audioUrl: spoken ? `/media/7/t/segment-00${index}-a.wav` : '',
    audioDurationMs: spoken ? 1500 + index * 100 : 0,
  });
  return {
    workId,
    voiceId: 'espeak-cmn-f',
    musicId: null,
    musicVolume: null,
    finished: false,
    revision: 1,
    segments: [segment(0, '深呼吸，放松肩膀。'), segment(1, '让思绪慢慢沉静下来。')],
    ...overrides,
  };
}
