import type { SaveTextBody, SaveVideoInfoBody, UpdateTextBody, WorkDetail } from '@kol/shared-sdk';
import { fakeBackendPerTest, ok, refuse, type FakeRoutes } from '@kol/shared-sdk/testing';
import {
  ENGLISH_VOICES,
  MATERIALS,
  MUSIC,
  STYLES,
  TEMPLATES,
  VOICES,
  demoLimits,
  demoWorkDetail,
  page,
} from './fixtures';

/**
 * Answers for every call the pages make on opening, each with an empty or harmless answer, so a
 * test that only checks what renders needs no setup. A test overrides what it is about.
 */
export function quietBackendRoutes(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET /api/user/get_user_limit_info': () =>
      ok(demoLimits({ remainGenCount: 3, remainOverseaGenCount: 2 })),
    'GET /api/video/get_works': () => ok(page([])),
    // An installation with an image and a speech service and no chat model, unless told.
    'GET /api/video/services': () =>
      ok({
        text: null,
        pictures: 'gpt-image-1（api.openai.com）',
        voice: 'tts-1（api.openai.com）',
      }),
    'GET /api/lora/get_loras': () => ok(STYLES),
    'GET /api/version/version_list': () =>
      ok([
        { id: 2, name: 'gpt-image-1（api.openai.com）', description: '已配置的图像服务' },
        { id: 1, name: '本地画面', description: '本地画面渲染' },
      ]),
    'GET /api/edit/tts_list': ({ query }) => ok(query.language === 'en' ? ENGLISH_VOICES : VOICES),
    'GET /api/edit/new_bg_music_list': () => ok(MUSIC),
    'GET /api/edit/get_vocabulary': () => ok([]),
    'GET /api/video/work_info': ({ query }) => ok(demoWorkDetail(Number(query.workId))),
    'GET /api/video/get_work_result': ({ query }) =>
      ok({
        workId: Number(query.workId),
        taskId: null,
        state: 'succeeded',
        stage: '',
        progress: 0,
        etaSeconds: null,
        stages: [],
        videoUrl: '',
        srtUrl: '',
        coverUrl: '',
        error: null,
      }),
    'POST /api/role/init_task': () => ok({ taskId: 'role-task-1' }),
    'GET /api/role/get_roles': () => ok([]),
    'GET /api/library/roles': () => ok(page([])),
    'GET /api/video/dedup_presets': () => ok({ presets: {}, revision: 0 }),
    'GET /api/cut_video/get_system_material_list': () => ok(page(MATERIALS)),
    'GET /api/video/get_templates': () => ok(TEMPLATES),
    ...overrides,
  };
}

/**
 * A page test's fake backend (`fakeBackendPerTest`, called at the top of the file): each test
 * starts from an empty session storage and opens its backend with `start(routes)`, its own
 * answers over the quiet ones, closed after it.
 */
export function videoBackendPerTest() {
  return fakeBackendPerTest(quietBackendRoutes);
}

/** What the server answers a save based on a revision that is no longer the work's newest. */
export const STALE_WORK_MESSAGE = '该作品已在其他页面修改，请刷新后再编辑';

/** One work held by a loopback backend (`workRoutes`); a test changes it as another writer. */
export interface WorkState {
  work: WorkDetail;
}

/**
 * Another writer's change of the held work (another tab, a picture the server drew): applied
 * whatever the revision, which it moves on, as the server's own writers do.
 */
export function changeWork(state: WorkState, change: (work: WorkDetail) => Partial<WorkDetail>) {
  state.work = { ...state.work, ...change(state.work), revision: state.work.revision + 1 };
}

/**
 * The loopback backend's answers for one work as the server gives them: `work_info` answers it;
 * `save_text` without a work makes it afresh (revision 1, under the held work's id);
 * `update_text`, `save_video_info` and `save_text` over it change it when based on its newest
 * revision, moving the revision on, and refuse a save based on an older one (412, the server's
 * message), so a test sees what a page does when the work changed since it loaded it.
 */
export function workRoutes(state: WorkState) {
  const stale = (body: unknown) =>
    (body as { revision?: unknown }).revision !== state.work.revision;
  const refused = () => refuse(412, STALE_WORK_MESSAGE, 412);
  const routes = {
    'GET /api/video/work_info': () => ok(state.work),
    'POST /api/video/update_text': ({ body }) => {
      if (stale(body)) return refused();
      const { title, text, shots } = body as UpdateTextBody;
      changeWork(state, () => ({
        ...(title !== undefined ? { title } : {}),
        ...(text !== undefined ? { text } : {}),
        ...(shots !== undefined ? { shots } : {}),
      }));
      return ok(state.work);
    },
    'POST /api/video/save_video_info': ({ body }) => {
      if (stale(body)) return refused();
      const { title, coverUrl, settings } = body as SaveVideoInfoBody;
      changeWork(state, (work) => ({
        ...(title !== undefined ? { title } : {}),
        ...(coverUrl !== undefined ? { coverUrl } : {}),
        // Merged over the stored settings key by key, as the server does.
        ...(settings !== undefined ? { settings: { ...work.settings, ...settings } } : {}),
      }));
      return ok({ revision: state.work.revision });
    },
    'POST /api/video/save_text': ({ body }) => {
      const { workId, type, title, text } = body as SaveTextBody;
      if (workId === undefined) {
        // A new work: the held one is made afresh, at revision 1, with the server's settings.
        state.work = {
          ...demoWorkDetail(state.work.workId),
          ...(type !== undefined ? { type } : {}),
          title,
          text,
        };
        return ok({ workId: state.work.workId, revision: state.work.revision });
      }
      if (stale(body)) return refused();
      changeWork(state, () => ({ ...(type !== undefined ? { type } : {}), title, text }));
      return ok({ workId, revision: state.work.revision });
    },
  } satisfies FakeRoutes;
  return routes;
}
