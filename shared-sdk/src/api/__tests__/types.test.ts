/**
 * Type test: each SDK call takes exactly its contract's query or body and resolves with exactly
 * its contract's data. `pnpm typecheck` proves it (a mismatch does not compile); the jest part
 * checks that the maps below cover every contract.
 */
import { describe, expect, it } from '@jest/globals';
import type { Static, TSchema } from 'typebox';
import type { EndpointDef } from '../../contracts/common';
import { cutVideoEndpoints } from '../../contracts/cut-video';
import { editEndpoints } from '../../contracts/edit';
import { noticeEndpoints } from '../../contracts/notice';
import { platformEndpoints } from '../../contracts/platform';
import { roleEndpoints } from '../../contracts/role';
import { ssoEndpoints } from '../../contracts/sso';
import { userEndpoints, type UsageLimits } from '../../contracts/user';
import { videoEndpoints } from '../../contracts/video';
import { writingEndpoints } from '../../contracts/writing';
import * as sdk from '..';
import { defineCall } from '../define-call';

type Equals<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type ResultOf<F> = F extends (...args: never[]) => Promise<infer R> ? R : never;
type SdkFunction = (...args: never[]) => Promise<unknown>;

/** For a contract group and the SDK functions that serve it: does every result type match? */
type ResultsMatch<
  G extends Record<string, EndpointDef>,
  M extends { [K in keyof G]: SdkFunction },
> = AllTrue<{ [K in keyof G]: Equals<ResultOf<M[K]>, Static<G[K]['response']>> }[keyof G]>;
/** `true` only when every member is `true` (a union with `false` in it is `boolean`). */
type AllTrue<U> = [U] extends [true] ? true : false;

/** The same for inputs, where the SDK passes the contract's input through unchanged. */
type InputMatches<E extends EndpointDef, F> = F extends (
  input: infer I,
  ...rest: never[]
) => unknown
  ? E extends { query: infer S extends TSchema }
    ? Equals<I, Static<S>>
    : E extends { body: infer S extends TSchema }
      ? Equals<I, Static<S>>
      : true
  : false;

const userCalls = {
  login: sdk.login,
  current: sdk.getCurrentUser,
  ticket: sdk.getUserTicket,
  logout: sdk.logout,
  updateUserInfo: sdk.updateUserInfo,
  register: sdk.register,
  updateUserDraft: sdk.updateUserDraft,
  getUserLimitInfo: sdk.getUserLimitInfo,
};
const ssoCalls = {
  verify: sdk.verifySsoTicket,
  login: sdk.getSsoLoginUrl,
  logout: sdk.getSsoLogoutUrl,
};
const videoCalls = {
  services: sdk.getVideoServices,
  translate: sdk.translateText,
  assistantList: sdk.getAssistantList,
  generate: sdk.generateVideoScript,
  saveText: sdk.saveText,
  getTemplates: sdk.getTemplates,
  videoConfig: sdk.getVideoConfig,
  getWorks: sdk.getWorks,
  deleteWork: sdk.deleteWork,
  updateText: sdk.updateText,
  workInfo: sdk.getWorkInfo,
  ttsAudition: sdk.ttsAudition,
  genVideo: sdk.genVideo,
  getWorkResult: sdk.getWorkResult,
  regenerateVideo: sdk.regenerateVideo,
  updateVideoStatus: sdk.updateVideoStatus,
  saveVideoInfo: sdk.saveVideoInfo,
  genImg: sdk.genImg,
  imgResult: sdk.getImgResult,
  genClip: sdk.genClip,
  clipResult: sdk.getClipResult,
  cancelTask: sdk.cancelTask,
  getUserNewestWorks: sdk.getUserNewestWorks,
};
const writingCalls = {
  getPlatforms: sdk.getPlatforms,
  search: sdk.searchBooks,
  searchCbid: sdk.searchBookById,
  generate: sdk.generateText,
  genResult: sdk.getGenResult,
  getChapterContent: sdk.getChapterContent,
  submitTweetsTask: sdk.submitTweetsTask,
  generateAsync: sdk.generateTextAsync,
  cancel: sdk.cancelGeneration,
  uploadBook: sdk.uploadBook,
  getGenerateAsyncResult: sdk.getGenerateAsyncResult,
};
const roleCalls = {
  getRoles: sdk.getRoles,
  deleteRole: sdk.deleteRole,
  addRole: sdk.addRole,
  updateRole: sdk.updateRole,
  extractRoles: sdk.extractRoles,
  reGenImg: sdk.regenerateRoleImage,
  initTask: sdk.initRoleTask,
  libraryRoles: sdk.getLibraryRoles,
  addRoleToTask: sdk.addRoleToTask,
  getLoras: sdk.getLoras,
  versionList: sdk.getVersionList,
  uploadImage: sdk.uploadImage,
  uploadMedia: sdk.uploadMedia,
  uploadedImgs: sdk.getUploadedImages,
};
const editCalls = {
  ttsList: sdk.getTtsList,
  ttsTry: sdk.ttsTry,
  ttsApply: sdk.ttsApply,
  newBgMusicList: sdk.getNewBgMusicList,
  searchMusic: sdk.searchMusic,
  deleteAsset: sdk.deleteEditAsset,
  getVocabulary: sdk.getVocabulary,
  getFirstLevelList: sdk.getFirstLevelList,
  getSecondLevelList: sdk.getSecondLevelList,
  asyncTtsTry: sdk.asyncTtsTry,
  asyncTtsTryResult: sdk.getAsyncTtsTryResult,
  updateTtsTryFailed: sdk.updateTtsTryFailed,
};
const cutVideoCalls = {
  getCutVideoTagList: sdk.getCutVideoTagList,
  getSystemMaterialList: sdk.getSystemMaterialList,
  getCutVideo: sdk.getCutVideo,
  updateCutVideoData: sdk.updateCutVideoData,
  generateCutTts: sdk.generateCutTts,
  endCutVideo: sdk.endCutVideo,
  sendMergeRequest: sdk.sendMergeRequest,
  reSendMergeRequest: sdk.reSendMergeRequest,
};
const noticeCalls = {
  list: sdk.getNoticeList,
  click: sdk.markNoticeRead,
  getNoticeCategory: sdk.getNoticeCategories,
  getNoticeCount: sdk.getNoticeCount,
};
const platformCalls = {
  config: sdk.getPlatformConfig,
  remotes: sdk.getRemoteRegistry,
  reportRemoteFailure: sdk.reportRemoteFailure,
};

// Each line compiles only when every result type of the group equals its contract's.
const resultChecks: true[] = [
  true satisfies ResultsMatch<typeof userEndpoints, typeof userCalls>,
  true satisfies ResultsMatch<typeof ssoEndpoints, typeof ssoCalls>,
  true satisfies ResultsMatch<typeof videoEndpoints, typeof videoCalls>,
  true satisfies ResultsMatch<typeof writingEndpoints, typeof writingCalls>,
  true satisfies ResultsMatch<typeof roleEndpoints, typeof roleCalls>,
  true satisfies ResultsMatch<typeof editEndpoints, typeof editCalls>,
  true satisfies ResultsMatch<typeof cutVideoEndpoints, typeof cutVideoCalls>,
  true satisfies ResultsMatch<typeof noticeEndpoints, typeof noticeCalls>,
  true satisfies ResultsMatch<typeof platformEndpoints, typeof platformCalls>,
];

// Inputs: a sample of each kind (body, query, none).
const inputChecks: true[] = [
  true satisfies InputMatches<typeof userEndpoints.login, typeof sdk.login>,
  true satisfies InputMatches<typeof videoEndpoints.getWorks, typeof sdk.getWorks>,
  true satisfies InputMatches<
    typeof cutVideoEndpoints.updateCutVideoData,
    typeof sdk.updateCutVideoData
  >,
  true satisfies InputMatches<typeof writingEndpoints.generate, typeof sdk.generateText>,
  true satisfies InputMatches<typeof userEndpoints.current, typeof sdk.getCurrentUser>,
];

// The checks can fail: a call wired to the wrong contract does not compile.
// @ts-expect-error getCurrentUser resolves with UserInfo, not UsageLimits
const wrongResult: true = true satisfies Equals<ResultOf<typeof sdk.getCurrentUser>, UsageLimits>;
// @ts-expect-error a path that is not the contract's does not compile
defineCall<typeof userEndpoints.login>('POST', '/api/user/logn');
// @ts-expect-error nor does a method that is not the contract's
defineCall<typeof userEndpoints.login>('GET', '/api/user/login');
// @ts-expect-error an idempotent contract's call must say so (it sends an Idempotency-Key)
defineCall<typeof videoEndpoints.genVideo>('POST', '/api/video/gen_video');
// @ts-expect-error and a call of any other contract must not
defineCall<typeof videoEndpoints.workInfo>('GET', '/api/video/work_info', 'idempotent');

describe('SDK call types', () => {
  it('maps every contract of every group to an SDK call', () => {
    const pairs: [Record<string, EndpointDef>, Record<string, unknown>][] = [
      [userEndpoints, userCalls],
      [ssoEndpoints, ssoCalls],
      [videoEndpoints, videoCalls],
      [writingEndpoints, writingCalls],
      [roleEndpoints, roleCalls],
      [editEndpoints, editCalls],
      [cutVideoEndpoints, cutVideoCalls],
      [noticeEndpoints, noticeCalls],
      [platformEndpoints, platformCalls],
    ];
    for (const [group, calls] of pairs) {
      expect(Object.keys(calls).sort()).toEqual(Object.keys(group).sort());
      for (const call of Object.values(calls)) expect(typeof call).toBe('function');
    }
    expect(resultChecks.every(Boolean) && inputChecks.every(Boolean) && wrongResult).toBe(true);
  });
});
