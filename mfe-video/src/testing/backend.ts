import { ok, type FakeRoutes } from '@kol/shared-sdk/testing';
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
    'GET /api/lora/get_loras': () => ok(STYLES),
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
    'GET /api/video/dedup_presets': () => ok({}),
    'GET /api/cut_video/get_system_material_list': () => ok(page(MATERIALS)),
    'GET /api/video/get_templates': () => ok(TEMPLATES),
    ...overrides,
  };
}
