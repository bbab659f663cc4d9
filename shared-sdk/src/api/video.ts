import type { VideoConfigType } from '../enums';
import { ConfigType } from '../enums';
import type { videoEndpoints } from '../contracts/video';
import type { CallOptions } from '../http/client';
import { defineCall } from './define-call';

type E = typeof videoEndpoints;

const assistantList = defineCall<E['assistantList']>('GET', '/api/video/assistant_list');
const templates = defineCall<E['getTemplates']>('GET', '/api/video/get_templates');
const videoConfig = defineCall<E['videoConfig']>('GET', '/api/video/video_config');

/** Assistants (configType=0). */
export function getAssistantList(options?: CallOptions) {
  return assistantList({ configType: ConfigType.assistant }, options);
}

/** Marketing templates (configType=1). */
export function getTemplates(options?: CallOptions) {
  return templates({ configType: ConfigType.template }, options);
}

/** Composition options: image styles (2), voices (3) or music (4). */
export function getVideoConfig(configType: VideoConfigType, options?: CallOptions) {
  return videoConfig({ configType }, options);
}

export const generateVideoScript = defineCall<E['generate']>('POST', '/api/video/generate');
export const saveText = defineCall<E['saveText']>('POST', '/api/video/save_text');
export const getWorks = defineCall<E['getWorks']>('GET', '/api/video/get_works');
export const deleteWork = defineCall<E['deleteWork']>('GET', '/api/video/delete_work');
export const updateText = defineCall<E['updateText']>('POST', '/api/video/update_text');
export const getWorkInfo = defineCall<E['workInfo']>('GET', '/api/video/work_info');
export const ttsAudition = defineCall<E['ttsAudition']>('POST', '/api/video/tts_audition');
export const genVideo = defineCall<E['genVideo']>('POST', '/api/video/gen_video');
export const getWorkResult = defineCall<E['getWorkResult']>('GET', '/api/video/get_work_result');
export const regenerateVideo = defineCall<E['regenerateVideo']>(
  'GET',
  '/api/video/regenerate_video',
);
export const updateVideoStatus = defineCall<E['updateVideoStatus']>(
  'GET',
  '/api/video/update_video_status',
);
export const saveVideoInfo = defineCall<E['saveVideoInfo']>('POST', '/api/video/save_video_info');
export const genImg = defineCall<E['genImg']>('POST', '/api/video/gen_img');
export const getImgResult = defineCall<E['imgResult']>('GET', '/api/video/img_result');
export const getUserNewestWorks = defineCall<E['getUserNewestWorks']>(
  'GET',
  '/api/video/get_user_newest_works',
);
