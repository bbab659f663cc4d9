import type { Material, MaterialTag } from '@kol/shared-sdk';
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
