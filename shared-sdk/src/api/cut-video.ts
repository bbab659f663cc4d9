import type { cutVideoEndpoints } from '../contracts/cut-video';
import { defineCall } from './define-call';

type E = typeof cutVideoEndpoints;

export const getCutVideoTagList = defineCall<E['getCutVideoTagList']>(
  'GET',
  '/api/cut_video/get_cut_video_tag_list',
);
export const getSystemMaterialList = defineCall<E['getSystemMaterialList']>(
  'GET',
  '/api/cut_video/get_system_material_list',
);
export const getCutVideo = defineCall<E['getCutVideo']>('GET', '/api/cut_video/get_cut_video');
export const updateCutVideoData = defineCall<E['updateCutVideoData']>(
  'POST',
  '/api/cut_video/update_cut_video_data',
);
export const generateCutTts = defineCall<E['generateCutTts']>(
  'POST',
  '/api/cut_video/generate_cut_tts',
  'idempotent',
);
export const endCutVideo = defineCall<E['endCutVideo']>('POST', '/api/cut_video/end_cut_video');
export const sendMergeRequest = defineCall<E['sendMergeRequest']>(
  'GET',
  '/api/video_edit/send_merge_request',
  'idempotent',
);
export const reSendMergeRequest = defineCall<E['reSendMergeRequest']>(
  'GET',
  '/api/video_edit/re_send_merge_request',
  'idempotent',
);
