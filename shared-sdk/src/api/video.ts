import type { VideoConfigType } from '../enums';
import { ConfigType } from '../enums';
import { EXPORT_PROJECT_PATH, VIDEO_PROGRESS_STREAM_PATH } from '../constants';
import type { ExportFormat, videoEndpoints, WorkResult } from '../contracts/video';
import { httpClient, type CallOptions } from '../http/client';
import { forgetSettledKeys } from '../http/idempotency';
import { defineCall } from './define-call';
import { followProgress, type ProgressHandlers } from './progress-stream';

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

/** The services this installation has configured (null: only the local engine). */
export const getVideoServices = defineCall<E['services']>('GET', '/api/video/services');
/** A text translated into English by the chat model (refused when there is none). */
export const translateText = defineCall<E['translate']>('POST', '/api/video/translate');

export const generateVideoScript = defineCall<E['generate']>(
  'POST',
  '/api/video/generate',
  'idempotent',
);
export const saveText = defineCall<E['saveText']>('POST', '/api/video/save_text', 'idempotent');
export const getWorks = defineCall<E['getWorks']>('GET', '/api/video/get_works');
export const deleteWork = defineCall<E['deleteWork']>('GET', '/api/video/delete_work');
export const updateText = defineCall<E['updateText']>('POST', '/api/video/update_text');
export const getWorkInfo = defineCall<E['workInfo']>('GET', '/api/video/work_info');
export const ttsAudition = defineCall<E['ttsAudition']>('POST', '/api/video/tts_audition');
export const genVideo = defineCall<E['genVideo']>('POST', '/api/video/gen_video', 'idempotent');
export const getWorkResult = defineCall<E['getWorkResult']>('GET', '/api/video/get_work_result');
export const regenerateVideo = defineCall<E['regenerateVideo']>(
  'GET',
  '/api/video/regenerate_video',
  'idempotent',
);
export const updateVideoStatus = defineCall<E['updateVideoStatus']>(
  'GET',
  '/api/video/update_video_status',
);
export const saveVideoInfo = defineCall<E['saveVideoInfo']>('POST', '/api/video/save_video_info');
export const genImg = defineCall<E['genImg']>('POST', '/api/video/gen_img', 'idempotent');
export const getImgResult = defineCall<E['imgResult']>('GET', '/api/video/img_result');
/** 重新生成动态镜头: one shot's clip made again from its picture; clip_result follows it. */
export const genClip = defineCall<E['genClip']>('POST', '/api/video/gen_clip', 'idempotent');
export const getClipResult = defineCall<E['clipResult']>('GET', '/api/video/clip_result');
const cancelTaskCall = defineCall<E['cancelTask']>('POST', '/api/video/cancel_task');
/** Stops a task; a start after it is a new task, even of the same work (forgetSettledKeys). */
export const cancelTask: typeof cancelTaskCall = (input, options) =>
  cancelTaskCall(input, options).finally(forgetSettledKeys);
export const getUserNewestWorks = defineCall<E['getUserNewestWorks']>(
  'GET',
  '/api/video/get_user_newest_works',
);

export type VideoProgressHandlers = ProgressHandlers<WorkResult>;

/**
 * Follows a work's video task as it renders (server-sent events). Answers a function that stops
 * listening; the task goes on regardless.
 */
export function followVideoProgress(workId: number, handlers: VideoProgressHandlers): () => void {
  return followProgress(`${VIDEO_PROGRESS_STREAM_PATH}?workId=${workId}`, handlers);
}

/**
 * Where the browser downloads a finished video as an editor's project (a plain link: the ZIP
 * streams). `jianying` needs the user's drafts folder (update_user_draft) first.
 */
export function exportProjectUrl(workId: number, format: ExportFormat, taskId?: string): string {
  const query = new URLSearchParams({ workId: String(workId), format });
  if (taskId) query.set('taskId', taskId);
  return `${httpClient.defaults.baseURL ?? ''}${EXPORT_PROJECT_PATH}?${query.toString()}`;
}
