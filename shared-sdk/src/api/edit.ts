import type { editEndpoints } from '../contracts/edit';
import { defineCall } from './define-call';

type E = typeof editEndpoints;

export const getTtsList = defineCall<E['ttsList']>('GET', '/api/edit/tts_list');
export const ttsTry = defineCall<E['ttsTry']>('POST', '/api/edit/tts_try');
export const ttsApply = defineCall<E['ttsApply']>('POST', '/api/edit/tts_apply');
export const getNewBgMusicList = defineCall<E['newBgMusicList']>(
  'GET',
  '/api/edit/new_bg_music_list',
);
export const searchMusic = defineCall<E['searchMusic']>('GET', '/api/edit/search_music');
export const deleteEditAsset = defineCall<E['deleteAsset']>('GET', '/api/edit/delete');
export const getVocabulary = defineCall<E['getVocabulary']>('GET', '/api/edit/get_vocabulary');
export const getFirstLevelList = defineCall<E['getFirstLevelList']>(
  'GET',
  '/api/edit/get_first_level_list',
);
export const getSecondLevelList = defineCall<E['getSecondLevelList']>(
  'GET',
  '/api/edit/get_second_level_list',
);
export const asyncTtsTry = defineCall<E['asyncTtsTry']>(
  'POST',
  '/api/edit/async_tts_try',
  'idempotent',
);
export const getAsyncTtsTryResult = defineCall<E['asyncTtsTryResult']>(
  'GET',
  '/api/edit/async_tts_try_result',
);
export const updateTtsTryFailed = defineCall<E['updateTtsTryFailed']>(
  'GET',
  '/api/edit/tts_list/update_tts_try_failed',
);
