import type { convertEndpoints } from '../contracts/convert';
import { defineCall } from './define-call';

type E = typeof convertEndpoints;

export const extractConvertScript = defineCall<E['convertScript']>(
  'POST',
  '/api/video/convert_script',
);
export const getDedupPresets = defineCall<E['getDedupPresets']>('GET', '/api/video/dedup_presets');
export const saveDedupPresets = defineCall<E['saveDedupPresets']>(
  'POST',
  '/api/video/save_dedup_presets',
);
export const previewDedup = defineCall<E['dedupPreview']>('POST', '/api/video/dedup_preview');
