import type { CutVideo, Material, MaterialTag } from '@kol/shared-sdk';
import { demoLimits } from './fixtures';
import { demoUser } from '@kol/shared-sdk/testing';

/** A user whose template ids allow decompression videos (template 3). */
export const decompressionUser = () => demoUser({ templateIds: [0, 1, 3] });

/** Two decompression counts and one merge count left. */
export const decompressionLimits = (overrides = {}) =>
  demoLimits({ remainCutCount: 2, remainCutMergeCount: 1, ...overrides });

export const MATERIAL_TAGS: MaterialTag[] = [
  { tagId: 1, name: '平静' },
  { tagId: 2, name: '暗色' },
  { tagId: 100, name: '我的上传' },
];

const material = (materialId: number, name: string, tagIds: number[]): Material => ({
  materialId,
  name,
  coverUrl: `/media/library/materials/${-materialId}.jpg`,
  videoUrl: `/media/library/materials/${-materialId}.mp4`,
  durationMs: 8000,
  source: 0,
  tagIds,
});

export const MATERIALS: Material[] = [
  material(-1, '晨雾流光', [1]),
  material(-3, '深海波光', [1, 2]),
  material(-4, '星夜', [2]),
];

/** A decompression work's cut data: two sentences, spoken or not. */
export function demoCut(
  workId: number,
  spoken = true,
  overrides: Partial<CutVideo> = {},
): CutVideo {
  const segment = (index: number, text: string) => ({
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
