import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { animeEndpoints } from '../../contracts/anime';
import { convertEndpoints } from '../../contracts/convert';
import type { EndpointDef } from '../../contracts/common';
import { cutVideoEndpoints } from '../../contracts/cut-video';
import { editEndpoints } from '../../contracts/edit';
import { noticeEndpoints } from '../../contracts/notice';
import { platformEndpoints } from '../../contracts/platform';
import { roleEndpoints } from '../../contracts/role';
import { seriesEndpoints } from '../../contracts/series';
import { ssoEndpoints } from '../../contracts/sso';
import { userEndpoints } from '../../contracts/user';
import { videoEndpoints } from '../../contracts/video';
import { writingEndpoints } from '../../contracts/writing';
import { configureHttp } from '../../http/client';
import { startLoopbackServer } from '../../testing/loopback-server';
import * as sdk from '..';

/** Every call spec section 7 lists, as the spec writes it. */
const SPEC_CALLS = `
POST /api/user/login
GET /api/user/current
GET /api/sso/verify
GET /api/sso/login
GET /api/sso/logout
GET /api/user/ticket
GET /api/user/logout
POST /api/user/update_user_info
POST /api/user/register
POST /api/user/update_user_draft
GET /api/user/get_user_limit_info
GET /api/video/assistant_list
POST /api/video/generate
POST /api/video/save_text
GET /api/video/get_templates
GET /api/video/video_config
GET /api/video/get_works
GET /api/video/delete_work
POST /api/video/update_text
GET /api/video/work_info
POST /api/video/tts_audition
POST /api/video/gen_video
GET /api/video/get_work_result
GET /api/video/regenerate_video
GET /api/video/update_video_status
POST /api/video/save_video_info
POST /api/video/gen_img
GET /api/video/img_result
GET /api/video/get_user_newest_works
GET /api/writing/get_platforms
GET /api/writing/search
GET /api/writing/search_cbid
POST /api/writing/generate
GET /api/writing/gen_result
GET /api/writing/get_chapter_content
POST /api/writing/submit_tweets_task
POST /api/writing/generate_async
GET /api/writing/get_generate_async_result
GET /api/role/get_roles
GET /api/role/delete
POST /api/role/add
POST /api/role/update
POST /api/role/extract_roles
POST /api/role/re_gen_img
POST /api/role/init_task
POST /api/library/add_role_to_task
GET /api/lora/get_loras
GET /api/version/version_list
GET /api/file/uploaded_imgs
GET /api/edit/tts_list
POST /api/edit/tts_try
POST /api/edit/tts_apply
GET /api/edit/new_bg_music_list
GET /api/edit/search_music
GET /api/edit/delete
GET /api/edit/get_vocabulary
GET /api/edit/get_first_level_list
GET /api/edit/get_second_level_list
POST /api/edit/async_tts_try
GET /api/edit/async_tts_try_result
GET /api/edit/tts_list/update_tts_try_failed
GET /api/cut_video/get_cut_video_tag_list
GET /api/cut_video/get_system_material_list
GET /api/cut_video/get_cut_video
POST /api/cut_video/update_cut_video_data
POST /api/cut_video/generate_cut_tts
POST /api/cut_video/end_cut_video
GET /api/video_edit/send_merge_request
GET /api/video_edit/re_send_merge_request
GET /api/notice/list
GET /api/notice/click
GET /api/notice/get_notice_category
GET /api/notice/get_notice_count
`
  .trim()
  .split('\n');

const CONTRACT_GROUPS = [
  userEndpoints,
  ssoEndpoints,
  videoEndpoints,
  animeEndpoints,
  convertEndpoints,
  writingEndpoints,
  roleEndpoints,
  editEndpoints,
  cutVideoEndpoints,
  noticeEndpoints,
  platformEndpoints,
  seriesEndpoints,
];
const ALL_CONTRACTS: EndpointDef[] = CONTRACT_GROUPS.flatMap((group) => Object.values(group));

const shot = {
  index: 0,
  caption: '他推开门。',
  imagePrompt: '雨夜，少年推门',
  roleIds: [1],
  imageUrl: '',
  audioUrl: '',
  durationMs: 3000,
  needsRegeneration: false,
};
const segment = { index: 0, text: '第一段', materialId: 3, startMs: 0, endMs: 4000, audioUrl: '' };

/**
 * Each SDK function, called with a sample input, and what the server must receive:
 * the contract's method and path, and the query (as strings) or the body.
 */
const CASES: [EndpointDef, () => Promise<unknown>, { query?: object; body?: unknown }][] = [
  [videoEndpoints.services, () => sdk.getVideoServices(), { query: {} }],
  [
    videoEndpoints.translate,
    () => sdk.translateText({ text: '你好。' }),
    { body: { text: '你好。' } },
  ],
  [
    userEndpoints.login,
    () => sdk.login({ username: 'demo', password: 'pw' }),
    { body: { username: 'demo', password: 'pw' } },
  ],
  [userEndpoints.current, () => sdk.getCurrentUser(), { query: {} }],
  [userEndpoints.ticket, () => sdk.getUserTicket(), { query: {} }],
  [userEndpoints.logout, () => sdk.logout(), { query: {} }],
  [
    userEndpoints.updateUserInfo,
    () => sdk.updateUserInfo({ homePageUrl: 'https://example.com/me' }),
    { body: { homePageUrl: 'https://example.com/me' } },
  ],
  [
    userEndpoints.register,
    () => sdk.register({ nickname: '小明', phone: '13800000000' }),
    { body: { nickname: '小明', phone: '13800000000' } },
  ],
  [
    userEndpoints.updateUserDraft,
    () => sdk.updateUserDraft({ draftPath: '/drafts/1' }),
    { body: { draftPath: '/drafts/1' } },
  ],
  [userEndpoints.getUserLimitInfo, () => sdk.getUserLimitInfo(), { query: {} }],
  [
    ssoEndpoints.verify,
    () => sdk.verifySsoTicket({ ticket: 'ST-1' }),
    { query: { ticket: 'ST-1' } },
  ],
  [ssoEndpoints.login, () => sdk.getSsoLoginUrl(), { query: {} }],
  [ssoEndpoints.logout, () => sdk.getSsoLogoutUrl(), { query: {} }],
  [videoEndpoints.assistantList, () => sdk.getAssistantList(), { query: { configType: '0' } }],
  [
    videoEndpoints.generate,
    () => sdk.generateVideoScript({ type: 0, sourceText: '原文' }),
    { body: { type: 0, sourceText: '原文' } },
  ],
  [
    videoEndpoints.saveText,
    () => sdk.saveText({ type: 0, title: '标题', text: '文案' }),
    { body: { type: 0, title: '标题', text: '文案' } },
  ],
  [videoEndpoints.getTemplates, () => sdk.getTemplates(), { query: { configType: '1' } }],
  [videoEndpoints.videoConfig, () => sdk.getVideoConfig(3), { query: { configType: '3' } }],
  [
    videoEndpoints.getWorks,
    () => sdk.getWorks({ type: 1, flag: 0, pageIndex: 2, pageSize: 10 }),
    { query: { type: '1', flag: '0', pageIndex: '2', pageSize: '10' } },
  ],
  [videoEndpoints.deleteWork, () => sdk.deleteWork({ workId: 9 }), { query: { workId: '9' } }],
  [
    videoEndpoints.updateText,
    () => sdk.updateText({ workId: 9, revision: 3, shots: [shot] }),
    { body: { workId: 9, revision: 3, shots: [shot] } },
  ],
  [videoEndpoints.workInfo, () => sdk.getWorkInfo({ workId: 9 }), { query: { workId: '9' } }],
  [
    videoEndpoints.ttsAudition,
    () => sdk.ttsAudition({ text: '你好', voiceId: 'cmn-f1' }),
    { body: { text: '你好', voiceId: 'cmn-f1' } },
  ],
  [videoEndpoints.genVideo, () => sdk.genVideo({ workId: 9 }), { body: { workId: 9 } }],
  [
    videoEndpoints.getWorkResult,
    () => sdk.getWorkResult({ workId: 9 }),
    { query: { workId: '9' } },
  ],
  [
    videoEndpoints.regenerateVideo,
    () => sdk.regenerateVideo({ workId: 9 }),
    { query: { workId: '9' } },
  ],
  [
    videoEndpoints.updateVideoStatus,
    () => sdk.updateVideoStatus({ workId: 9, flag: 1 }),
    { query: { workId: '9', flag: '1' } },
  ],
  [
    videoEndpoints.saveVideoInfo,
    () => sdk.saveVideoInfo({ workId: 9, revision: 3, title: '新标题' }),
    { body: { workId: 9, revision: 3, title: '新标题' } },
  ],
  [
    videoEndpoints.genImg,
    () => sdk.genImg({ prompt: '少年', workId: 9, shotIndex: 0 }),
    { body: { prompt: '少年', workId: 9, shotIndex: 0 } },
  ],
  [videoEndpoints.imgResult, () => sdk.getImgResult({ taskId: 't1' }), { query: { taskId: 't1' } }],
  [
    videoEndpoints.genClip,
    () => sdk.genClip({ workId: 9, shotIndex: 2 }),
    { body: { workId: 9, shotIndex: 2 } },
  ],
  [
    videoEndpoints.clipResult,
    () => sdk.getClipResult({ taskId: 't2' }),
    { query: { taskId: 't2' } },
  ],
  [
    videoEndpoints.cancelTask,
    () => sdk.cancelTask({ taskId: 'task-9' }),
    { body: { taskId: 'task-9' } },
  ],
  [
    videoEndpoints.getUserNewestWorks,
    () => sdk.getUserNewestWorks({ limit: 5 }),
    { query: { limit: '5' } },
  ],
  [
    animeEndpoints.animeScript,
    () => sdk.adaptAnimeScript({ text: '雨夜重逢', genre: '都市', length: 'short' }),
    { body: { text: '雨夜重逢', genre: '都市', length: 'short' } },
  ],
  [
    animeEndpoints.animeStoryboard,
    () => sdk.startAnimeStoryboard({ workId: 9 }),
    { body: { workId: 9 } },
  ],
  [
    convertEndpoints.convertScript,
    () => sdk.extractConvertScript({ sourceVideoUrl: '/uploads/1/a.mp4' }),
    { body: { sourceVideoUrl: '/uploads/1/a.mp4' } },
  ],
  [convertEndpoints.getDedupPresets, () => sdk.getDedupPresets(), { query: {} }],
  [
    convertEndpoints.saveDedupPresets,
    () => sdk.saveDedupPresets({ presets: { mirror: true, speed: 1.1 }, revision: 0 }),
    { body: { presets: { mirror: true, speed: 1.1 }, revision: 0 } },
  ],
  [
    convertEndpoints.dedupPreview,
    () => sdk.previewDedup({ sourceVideoUrl: '/uploads/1/a.mp4', presets: { mirror: true } }),
    { body: { sourceVideoUrl: '/uploads/1/a.mp4', presets: { mirror: true } } },
  ],
  [writingEndpoints.getPlatforms, () => sdk.getPlatforms(), { query: {} }],
  [
    writingEndpoints.search,
    () => sdk.searchBooks({ bookName: '诡秘', platformId: 1 }),
    { query: { bookName: '诡秘', platformId: '1' } },
  ],
  [
    writingEndpoints.searchCbid,
    () => sdk.searchBookById({ cbid: '1001' }),
    { query: { cbid: '1001' } },
  ],
  [
    writingEndpoints.generate,
    () => sdk.generateText({ bookId: 1, chapterIds: [2, 3], kind: 'promo' }),
    { body: { bookId: 1, chapterIds: [2, 3], kind: 'promo' } },
  ],
  [
    writingEndpoints.genResult,
    () => sdk.getGenResult({ taskId: 't2' }),
    { query: { taskId: 't2' } },
  ],
  [
    writingEndpoints.getChapterContent,
    () => sdk.getChapterContent({ bookId: 1, chapterId: 2 }),
    { query: { bookId: '1', chapterId: '2' } },
  ],
  [
    writingEndpoints.submitTweetsTask,
    () => sdk.submitTweetsTask({ bookId: 1, chapterIds: [2], kind: 'spoken' }),
    { body: { bookId: 1, chapterIds: [2], kind: 'spoken' } },
  ],
  [
    writingEndpoints.generateAsync,
    () => sdk.generateTextAsync({ sourceText: '长文', kind: 'narration' }),
    { body: { sourceText: '长文', kind: 'narration' } },
  ],
  [
    writingEndpoints.getGenerateAsyncResult,
    () => sdk.getGenerateAsyncResult({ taskId: 't3' }),
    { query: { taskId: 't3' } },
  ],
  [
    writingEndpoints.cancel,
    () => sdk.cancelGeneration({ taskId: 't3' }),
    { body: { taskId: 't3' } },
  ],
  [
    writingEndpoints.uploadBook,
    () => sdk.uploadBook(new Blob(['第一章 开端'], { type: 'text/plain' }), 'book.txt'),
    { body: { multipart: 'book.txt', content: '第一章 开端' } },
  ],
  [roleEndpoints.getRoles, () => sdk.getRoles({ taskId: 't4' }), { query: { taskId: 't4' } }],
  [roleEndpoints.deleteRole, () => sdk.deleteRole({ roleId: 5 }), { query: { roleId: '5' } }],
  [
    roleEndpoints.addRole,
    () => sdk.addRole({ name: '林动', description: '黑发少年' }),
    { body: { name: '林动', description: '黑发少年' } },
  ],
  [
    roleEndpoints.updateRole,
    () => sdk.updateRole({ roleId: 5, revision: 2, name: '林动' }),
    { body: { roleId: 5, revision: 2, name: '林动' } },
  ],
  [
    roleEndpoints.extractRoles,
    () => sdk.extractRoles({ taskId: 't4', text: '原文' }),
    { body: { taskId: 't4', text: '原文' } },
  ],
  [roleEndpoints.reGenImg, () => sdk.regenerateRoleImage({ roleId: 5 }), { body: { roleId: 5 } }],
  [roleEndpoints.initTask, () => sdk.initRoleTask({ type: 11 }), { body: { type: 11 } }],
  [
    roleEndpoints.libraryRoles,
    () => sdk.getLibraryRoles({ type: 11, keyword: '林', pageIndex: 2, pageSize: 12 }),
    { query: { type: '11', keyword: '林', pageIndex: '2', pageSize: '12' } },
  ],
  [
    roleEndpoints.addRoleToTask,
    () => sdk.addRoleToTask({ roleId: 5, taskId: 't4' }),
    { body: { roleId: 5, taskId: 't4' } },
  ],
  [roleEndpoints.getLoras, () => sdk.getLoras(), { query: {} }],
  [roleEndpoints.versionList, () => sdk.getVersionList(), { query: {} }],
  [
    roleEndpoints.uploadedImgs,
    () => sdk.getUploadedImages({ pageIndex: 1 }),
    { query: { pageIndex: '1' } },
  ],
  [
    roleEndpoints.uploadImage,
    () => sdk.uploadImage(new Blob(['png-bytes'], { type: 'image/png' }), 'avatar.png'),
    { body: { multipart: 'avatar.png', content: 'png-bytes' } },
  ],
  [
    roleEndpoints.uploadMedia,
    () => sdk.uploadMedia(new Blob(['mp4-bytes'], { type: 'video/mp4' }), 'source.mp4'),
    { body: { multipart: 'source.mp4', content: 'mp4-bytes' } },
  ],
  [editEndpoints.ttsList, () => sdk.getTtsList({ language: 'zh' }), { query: { language: 'zh' } }],
  [
    editEndpoints.ttsTry,
    () => sdk.ttsTry({ text: '你好', voiceId: 'v1', speed: 1.2 }),
    { body: { text: '你好', voiceId: 'v1', speed: 1.2 } },
  ],
  [
    editEndpoints.ttsApply,
    () => sdk.ttsApply({ workId: 9, voiceId: 'v1' }),
    { body: { workId: 9, voiceId: 'v1' } },
  ],
  [editEndpoints.newBgMusicList, () => sdk.getNewBgMusicList(), { query: {} }],
  [
    editEndpoints.searchMusic,
    () => sdk.searchMusic({ keyword: '悬疑' }),
    { query: { keyword: '悬疑' } },
  ],
  [
    editEndpoints.deleteAsset,
    () => sdk.deleteEditAsset({ assetId: 4 }),
    { query: { assetId: '4' } },
  ],
  [editEndpoints.getVocabulary, () => sdk.getVocabulary(), { query: {} }],
  [
    editEndpoints.getFirstLevelList,
    () => sdk.getFirstLevelList({ type: 1 }),
    { query: { type: '1' } },
  ],
  [
    editEndpoints.getSecondLevelList,
    () => sdk.getSecondLevelList({ parentId: 2 }),
    { query: { parentId: '2' } },
  ],
  [
    editEndpoints.asyncTtsTry,
    () => sdk.asyncTtsTry({ text: '长文本', voiceId: 'v1' }),
    { body: { text: '长文本', voiceId: 'v1' } },
  ],
  [
    editEndpoints.asyncTtsTryResult,
    () => sdk.getAsyncTtsTryResult({ taskId: 't5' }),
    { query: { taskId: 't5' } },
  ],
  [
    editEndpoints.updateTtsTryFailed,
    () => sdk.updateTtsTryFailed({ taskId: 't5' }),
    { query: { taskId: 't5' } },
  ],
  [cutVideoEndpoints.getCutVideoTagList, () => sdk.getCutVideoTagList(), { query: {} }],
  [
    cutVideoEndpoints.getSystemMaterialList,
    () => sdk.getSystemMaterialList({ tagId: 2, pageIndex: 1, pageSize: 20 }),
    { query: { tagId: '2', pageIndex: '1', pageSize: '20' } },
  ],
  [cutVideoEndpoints.getCutVideo, () => sdk.getCutVideo({ workId: 9 }), { query: { workId: '9' } }],
  [
    cutVideoEndpoints.updateCutVideoData,
    () => sdk.updateCutVideoData({ workId: 9, revision: 4, segments: [segment] }),
    { body: { workId: 9, revision: 4, segments: [segment] } },
  ],
  [
    cutVideoEndpoints.generateCutTts,
    () => sdk.generateCutTts({ workId: 9, voiceId: 'v1' }),
    { body: { workId: 9, voiceId: 'v1' } },
  ],
  [cutVideoEndpoints.endCutVideo, () => sdk.endCutVideo({ workId: 9 }), { body: { workId: 9 } }],
  [
    cutVideoEndpoints.sendMergeRequest,
    () => sdk.sendMergeRequest({ workId: 9 }),
    { query: { workId: '9' } },
  ],
  [
    cutVideoEndpoints.reSendMergeRequest,
    () => sdk.reSendMergeRequest({ workId: 9 }),
    { query: { workId: '9' } },
  ],
  [
    noticeEndpoints.list,
    () => sdk.getNoticeList(),
    { query: { pageIndex: '1', pageSize: '1000', id: '-1' } },
  ],
  [noticeEndpoints.click, () => sdk.markNoticeRead(12), { query: { noticeId: '12' } }],
  [noticeEndpoints.click, () => sdk.markAllNoticesRead(), { query: { noticeId: '-1' } }],
  [noticeEndpoints.getNoticeCategory, () => sdk.getNoticeCategories(), { query: {} }],
  [noticeEndpoints.getNoticeCount, () => sdk.getNoticeCount(), { query: {} }],
  [platformEndpoints.config, () => sdk.getPlatformConfig(), { query: {} }],
  [platformEndpoints.remotes, () => sdk.getRemoteRegistry(), { query: {} }],
  [
    platformEndpoints.reportRemoteFailure,
    () =>
      sdk.reportRemoteFailure({ remote: 'mfe_user', version: '1', phase: 'onLoad', message: 'x' }),
    { body: { remote: 'mfe_user', version: '1', phase: 'onLoad', message: 'x' } },
  ],
  ...seriesCases(),
];

function seriesCases(): typeof CASES {
  const source = { kind: 'book' as const, bookId: 1, fromChapter: 1, toChapter: 3 };
  const plan = { type: 0 as const, source, narration: 'chapter' as const };
  const create = {
    ...plan,
    title: '书名',
    episodeTitles: ['书名 第1集', '书名 第2集', '书名 第3集'],
    settings: { aspect: '9:16' as const },
  };
  return [
    [seriesEndpoints.plan, () => sdk.planSeries(plan), { body: plan }],
    [seriesEndpoints.create, () => sdk.createSeries(create), { body: create }],
    [
      seriesEndpoints.start,
      () => sdk.startSeries({ seriesId: 4, episodes: 2 }),
      { body: { seriesId: 4, episodes: 2 } },
    ],
    [seriesEndpoints.detail, () => sdk.getSeries({ seriesId: 4 }), { query: { seriesId: '4' } }],
    [seriesEndpoints.list, () => sdk.listSeries(), { query: {} }],
    [seriesEndpoints.pause, () => sdk.pauseSeries({ seriesId: 4 }), { body: { seriesId: 4 } }],
    [seriesEndpoints.resume, () => sdk.resumeSeries({ seriesId: 4 }), { body: { seriesId: 4 } }],
    [seriesEndpoints.cancel, () => sdk.cancelSeries({ seriesId: 4 }), { body: { seriesId: 4 } }],
    [
      seriesEndpoints.retryEpisode,
      () => sdk.retrySeriesEpisode({ seriesId: 4, index: 2 }),
      { body: { seriesId: 4, index: 2 } },
    ],
  ];
}

function isMultipart(body: unknown): body is { multipart: string; content: string } {
  return typeof body === 'object' && body !== null && 'multipart' in body;
}

let server: Awaited<ReturnType<typeof startLoopbackServer>>;

beforeAll(async () => {
  server = await startLoopbackServer(() => ({ body: { code: 0, msg: '', data: null } }));
  configureHttp({ baseURL: server.origin });
});
afterAll(() => server.close());

describe('the calls of spec section 7', () => {
  it('has a contract for each of the 73 calls the spec lists, with its method', () => {
    expect(SPEC_CALLS).toHaveLength(73);
    const declared = new Set(ALL_CONTRACTS.map((def) => `${def.method} ${def.path}`));
    const missing = SPEC_CALLS.filter((call) => !declared.has(call));
    expect(missing).toEqual([]);
  });

  it('has an SDK call for every contract', () => {
    const called = new Set(CASES.map(([def]) => def));
    expect(ALL_CONTRACTS.filter((def) => !called.has(def)).map((def) => def.path)).toEqual([]);
  });

  it.each(
    CASES.map(
      ([def, call, expected]) => [`${def.method} ${def.path}`, def, call, expected] as const,
    ),
  )('%s sends its method, path and parameters', async (_name, def, call, expected) => {
    await call();
    const seen = server.seen.at(-1);
    expect(seen?.method).toBe(def.method);
    expect(seen?.path).toBe(def.path);
    // A create call carries its idempotency key; no other call does.
    expect(seen?.headers['idempotency-key'] !== undefined).toBe(def.idempotent === true);
    if (def.method === 'GET') {
      expect(seen?.query).toEqual(expected.query);
      expect(seen?.body).toBeUndefined();
    } else if (isMultipart(expected.body)) {
      expect(String(seen?.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
      expect(seen?.body).toContain(`name="file"; filename="${expected.body.multipart}"`);
      expect(seen?.body).toContain(expected.body.content);
    } else {
      expect(seen?.body).toEqual(expected.body);
      expect(seen?.query).toEqual({});
    }
  });
});
