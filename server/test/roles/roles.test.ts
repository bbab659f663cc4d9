import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import {
  LOCAL_FRAME_LABEL,
  type ExtractedRoles,
  type ImageResult,
  type Lora,
  type Role,
  type TaskRef,
} from '@kol/shared-sdk/contracts';
import { extractRolesLocally, LOCAL_EXTRACTION_ENGINE } from '../../src/roles/extract';
import { assignVoices, speakerGenders } from '../../src/video/pipelines/kit/dialogue';
import { createTestApp, testDataDir } from '../helpers/test-app';
import { waitFor } from '../tasks/helpers';
import { signedInClient, type Client } from '../writing/helpers';

jest.setTimeout(120_000);

let app: FastifyInstance;
let alice: Client;
let bob: Client;

const STORY = [
  '林动是个十六岁的少年，黑发，穿着洗得发白的青色布衣。',
  '清晨，林动背着竹篓走出小镇。',
  '苏柔站在桥头，一身白衣，手里拿着油纸伞。',
  '苏柔笑道：“你又去山里？”',
  '林动说：“采完药就回来。”',
  '老铁匠在路边敲打着铁器，没有抬头。',
  '苏柔说：“早点回来。”林动点点头，走进了雾里。',
].join('');

async function roleTask(client: Client, body: Record<string, unknown> = { type: 0 }) {
  const answer = await client.post('/api/role/init_task', body);
  expect(answer.code).toBe(0);
  return (answer.data as TaskRef).taskId;
}

beforeAll(async () => {
  ({ app } = await createTestApp({
    videoTasks: {
      workInProcess: true,
      concurrency: 1,
      workDir: path.join(testDataDir(), 'tasks'),
      pollingIntervalSeconds: 0.5,
    },
  }));
  alice = await signedInClient(app);
  bob = await signedInClient(app);
});
afterAll(async () => {
  await app.close();
});

describe('local role extraction', () => {
  it('finds the named people by frequency and describes them from the clauses about them', () => {
    const roles = extractRolesLocally(STORY);
    expect(roles.map((r) => r.name)).toEqual(['林动', '苏柔']);
    expect(roles[0]?.description).toContain('十六岁的少年，黑发，穿着洗得发白的青色布衣');
    expect(roles[0]?.gender).toBe('male');
    expect(roles[1]?.description).toContain('白衣');
    expect(extractRolesLocally('今天天气很好。我们去公园散步。')).toEqual([]);
  });

  it('takes speakers of 「X说」 clauses that have no common surname', () => {
    const roles = extractRolesLocally('小貂说：“饿了。”阿飞问：“吃什么？”小貂说：“鱼。”阿飞笑了。');
    expect(roles.map((r) => r.name).sort()).toEqual(['小貂', '阿飞'].sort());
  });
});

describe('role tasks and roles', () => {
  let taskId = '';
  let linDong: Role;

  it('creates a role task for a work of a type with roles, once per work', async () => {
    const saved = await alice.post('/api/video/save_text', { title: '雾', text: STORY });
    const { workId } = saved.data as { workId: number };
    taskId = await roleTask(alice, { type: 0, workId });
    expect(await roleTask(alice, { type: 0, workId })).toBe(taskId);
    expect(await roleTask(alice)).not.toBe(taskId);

    expect((await alice.post('/api/role/init_task', { type: 2 })).status).toBe(400);
    const mismatch = await alice.post('/api/role/init_task', { type: 11, workId });
    expect(mismatch.status).toBe(400);
    expect((await bob.post('/api/role/init_task', { type: 0, workId })).status).toBe(404);
    expect((await alice.get(`/api/role/get_roles?taskId=${taskId}`)).data).toEqual([]);
  });

  it('adds, updates and deletes roles, each with a fixed seed', async () => {
    const added = await alice.post('/api/role/add', {
      taskId,
      name: '林动',
      description: '黑发少年',
      loraId: 1,
    });
    expect(added.code).toBe(0);
    linDong = added.data as Role;
    expect(linDong).toMatchObject({
      taskId,
      name: '林动',
      description: '黑发少年',
      referenceImageUrl: '',
      imageUrls: [],
      loraId: 1,
      // Added without one, the gender is what the description says.
      gender: 'male',
    });
    expect(linDong.seed).toBeGreaterThan(0);

    const twice = await alice.post('/api/role/add', { taskId, name: '林动', description: '' });
    expect(twice.status).toBe(409);
    expect(twice.msg).toBe('角色「林动」已在这个任务中');
    expect(
      (await alice.post('/api/role/add', { taskId, name: 'X', description: '', loraId: 99 }))
        .status,
    ).toBe(400);
    const foreignPicture = await alice.post('/api/role/add', {
      taskId,
      name: 'Y',
      description: '',
      referenceImageUrl: '/media/999999/x/image.jpg',
    });
    expect(foreignPicture.status).toBe(400);
    expect(foreignPicture.msg).toBe('「参考图」不存在或不属于你');

    const updated = await alice.post('/api/role/update', {
      roleId: linDong.roleId,
      revision: linDong.revision,
      description: '十六岁少年，黑发，青色布衣',
    });
    expect(updated.data).toMatchObject({
      roleId: linDong.roleId,
      name: '林动',
      description: '十六岁少年，黑发，青色布衣',
      seed: linDong.seed,
      gender: 'male',
    });
    linDong = updated.data as Role;

    const temp = (await alice.post('/api/role/add', { taskId, name: '路人', description: '' }))
      .data as Role;
    const clash = await alice.post('/api/role/update', {
      roleId: temp.roleId,
      revision: temp.revision,
      name: '林动',
    });
    expect(clash.status).toBe(409);
    const deleted = await alice.get(`/api/role/delete?roleId=${temp.roleId}`);
    expect(deleted.code).toBe(0);
    expect((await alice.get(`/api/role/delete?roleId=${temp.roleId}`)).status).toBe(404);
    const listed = (await alice.get(`/api/role/get_roles?taskId=${taskId}`)).data as Role[];
    expect(listed.map((r) => r.name)).toEqual(['林动']);
  });

  it('edits the gender like any field: a new revision, a stale one refused, null for 未知', async () => {
    const female = await alice.post('/api/role/update', {
      roleId: linDong.roleId,
      revision: linDong.revision,
      gender: 'female',
    });
    expect(female.data).toMatchObject({ gender: 'female', revision: linDong.revision + 1 });
    const stale = await alice.post('/api/role/update', {
      roleId: linDong.roleId,
      revision: linDong.revision,
      gender: 'male',
    });
    expect(stale.status).toBe(412);
    const wrong = await alice.post('/api/role/update', {
      roleId: linDong.roleId,
      revision: linDong.revision + 1,
      gender: 'boy',
    });
    expect(wrong.status).toBe(400);
    const unknown = await alice.post('/api/role/update', {
      roleId: linDong.roleId,
      revision: linDong.revision + 1,
      gender: null,
    });
    expect(unknown.data).toMatchObject({ gender: null, revision: linDong.revision + 2 });
    const back = await alice.post('/api/role/update', {
      roleId: linDong.roleId,
      revision: linDong.revision + 2,
      gender: 'male',
    });
    expect(back.data).toMatchObject({ gender: 'male', description: '十六岁少年，黑发，青色布衣' });
    linDong = back.data as Role;
  });

  it('extracts roles offline, keeping the ones the task already has', async () => {
    const answer = await alice.post('/api/role/extract_roles', { taskId, text: STORY });
    expect(answer.code).toBe(0);
    const { roles, engine } = answer.data as ExtractedRoles;
    expect(engine).toBe(LOCAL_EXTRACTION_ENGINE);
    expect(roles.map((r) => r.name)).toEqual(['林动', '苏柔']);
    // 林动 was already there: the user's description and seed stay.
    expect(roles[0]).toMatchObject({
      roleId: linDong.roleId,
      description: '十六岁少年，黑发，青色布衣',
    });
    expect(roles[1]?.description).toContain('白衣');
    expect(roles.map((r) => r.gender)).toEqual(['male', 'female']);
    const again = (await alice.post('/api/role/extract_roles', { taskId, text: STORY }))
      .data as ExtractedRoles;
    expect(again.roles.map((r) => r.roleId)).toEqual(roles.map((r) => r.roleId));
    const listed = (await alice.get(`/api/role/get_roles?taskId=${taskId}`)).data as Role[];
    expect(listed).toHaveLength(2);
  });

  it('answers each extracted role’s gender, and the dialogue voices follow it', async () => {
    // The report of issue 30: the scholar 沈言 spoke in a woman's voice and 阿瑶 in a man's.
    const text = [
      '阿瑶每天傍晚提着竹篮上山。',
      '沈言是个落第书生，寄住在山脚的破庙里。',
      '阿瑶说：“沈公子，粥还热着。”',
      '沈言笑道：“多谢阿瑶姑娘。”',
    ].join('');
    const task = await roleTask(alice, { type: 11 });
    const answer = await alice.post('/api/role/extract_roles', { taskId: task, text });
    expect(answer.code).toBe(0);
    const { roles } = answer.data as ExtractedRoles;
    const genders = Object.fromEntries(roles.map((role) => [role.name, role.gender]));
    expect(genders).toMatchObject({ 沈言: 'male', 阿瑶: 'female' });
    // 阿瑶 speaks first: with no gender she would take the first voice of the alternation
    // anyway, so 沈言 speaking first is the case that shows the genders decide.
    const speakers = ['沈言', '阿瑶'];
    const voices = assignVoices(speakers, {}, () => true, speakerGenders(speakers, roles, text));
    expect(voices['沈言']?.voiceId).toBe('espeak-cmn-m');
    expect(voices['阿瑶']?.voiceId).toBe('espeak-cmn-f');
  });

  it('draws a portrait with re_gen_img: the first becomes the reference picture', async () => {
    const draw = async () => {
      const started = await alice.post('/api/role/re_gen_img', {
        roleId: linDong.roleId,
        prompt: '站在山门前',
      });
      expect(started.code).toBe(0);
      const { taskId: imageTask } = started.data as TaskRef;
      return waitFor(async () => {
        const data = (await alice.get(`/api/video/img_result?taskId=${imageTask}`))
          .data as ImageResult;
        if (data.state === 'failed') throw new Error(String(data.error));
        return data.state === 'succeeded' ? data : null;
      }, 60_000);
    };
    const first = await draw();
    expect(first).toMatchObject({ engine: LOCAL_FRAME_LABEL, error: null });
    const picture = await app.inject({
      method: 'GET',
      url: first.imageUrl,
      headers: alice.headers,
    });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/jpeg');
    const second = await draw();
    const roles = (await alice.get(`/api/role/get_roles?taskId=${taskId}`)).data as Role[];
    const role = roles.find((r) => r.roleId === linDong.roleId);
    expect(role?.imageUrls).toEqual([first.imageUrl, second.imageUrl]);
    expect(role?.referenceImageUrl).toBe(first.imageUrl);
    expect(role?.seed).toBe(linDong.seed);

    // A picture of the user's own is a valid reference; another user's is not.
    const other = await bob.post('/api/role/add', {
      name: '借图',
      description: '',
      referenceImageUrl: first.imageUrl,
    });
    expect(other.status).toBe(400);
    const own = await alice.post('/api/role/update', {
      roleId: linDong.roleId,
      revision: role?.revision,
      referenceImageUrl: second.imageUrl,
    });
    expect((own.data as Role).referenceImageUrl).toBe(second.imageUrl);
  });

  it('copies a role of an earlier task into another with add_role_to_task', async () => {
    const next = await roleTask(alice, { type: 11 });
    const copied = await alice.post('/api/library/add_role_to_task', {
      roleId: linDong.roleId,
      taskId: next,
    });
    expect(copied.code).toBe(0);
    const copy = copied.data as Role;
    expect(copy.roleId).not.toBe(linDong.roleId);
    expect(copy).toMatchObject({ taskId: next, name: '林动', seed: linDong.seed });
    expect(copy.imageUrls).toHaveLength(2);
    const twice = await alice.post('/api/library/add_role_to_task', {
      roleId: linDong.roleId,
      taskId: next,
    });
    expect(twice.status).toBe(409);
  });

  it('refuses every id of another user with 404', async () => {
    const bobTask = await roleTask(bob);
    const role = linDong.roleId;
    const answers = await Promise.all([
      bob.get(`/api/role/get_roles?taskId=${taskId}`),
      bob.get('/api/role/get_roles?taskId=not-a-uuid'),
      bob.post('/api/role/add', { taskId, name: '闯入', description: '' }),
      bob.post('/api/role/update', { roleId: role, revision: 1, name: '改名' }),
      bob.get(`/api/role/delete?roleId=${role}`),
      bob.post('/api/role/extract_roles', { taskId, text: STORY }),
      bob.post('/api/role/re_gen_img', { roleId: role }),
      bob.post('/api/library/add_role_to_task', { roleId: role, taskId: bobTask }),
      alice.post('/api/library/add_role_to_task', { roleId: role, taskId: bobTask }),
    ]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 404));
    const still = (await alice.get(`/api/role/get_roles?taskId=${taskId}`)).data as Role[];
    expect(still.find((r) => r.roleId === role)?.name).toBe('林动');
  });
});

describe('styles and engines', () => {
  it('serves the built-in styles and, offline, the local renderer as the one engine', async () => {
    const styles = (await alice.get('/api/lora/get_loras')).data as Lora[];
    expect(styles.map((s) => s.name)).toContain('国风水墨');
    const engines = (await alice.get('/api/version/version_list')).data as Array<{ name: string }>;
    expect(engines.map((e) => e.name)).toEqual([LOCAL_FRAME_LABEL]);
    expect((await app.inject({ method: 'GET', url: '/api/lora/get_loras' })).statusCode).toBe(401);
  });
});

describe('My roles: the role library', () => {
  type Page = { items: Role[]; total: number };
  const library = async (client: Client, query = '') =>
    (await client.get(`/api/library/roles${query}`)).data as Page;

  it('lists the caller’s roles of no task, newest first, by kind and name, paged', async () => {
    const carol = await signedInClient(app);
    const add = async (name: string, type: number) => {
      const answer = await carol.post('/api/role/add', {
        name,
        description: `${name}的样子`,
        type,
      });
      expect(answer.code).toBe(0);
      return answer.data as Role;
    };
    const hero = await add('林动', 0);
    await add('Alice', 5);
    await add('小貂', 11);
    expect(hero).toMatchObject({ taskId: null, type: 0, name: '林动' });
    // A role of a task is not in the library, and takes its task's type whatever it is given.
    const task = await roleTask(carol, { type: 11 });
    const inTask = (
      await carol.post('/api/role/add', {
        taskId: task,
        name: '任务角色',
        description: '',
        type: 0,
      })
    ).data as Role;
    expect(inTask.type).toBe(11);

    const all = await library(carol);
    expect(all.total).toBe(3);
    expect(all.items.map((r) => r.name)).toEqual(['小貂', 'Alice', '林动']);
    expect((await library(carol, '?type=5')).items.map((r) => r.name)).toEqual(['Alice']);
    expect((await library(carol, '?keyword=%E5%B0%8F')).items.map((r) => r.name)).toEqual(['小貂']);
    const second = await library(carol, '?pageIndex=2&pageSize=2');
    expect(second).toMatchObject({ total: 3, items: [{ name: '林动' }] });

    // An edit (its kind too) moves it to the top; a bad kind is refused in Chinese.
    const edited = await carol.post('/api/role/update', {
      roleId: hero.roleId,
      revision: hero.revision,
      type: 11,
    });
    expect(edited.data).toMatchObject({ roleId: hero.roleId, type: 11 });
    expect((await library(carol, '?type=11')).items.map((r) => r.name)).toEqual(['林动', '小貂']);
    const twice = await carol.post('/api/role/add', { name: 'Alice', description: '', type: 0 });
    expect(twice.status).toBe(409);
    expect(twice.msg).toBe('角色「Alice」已在我的角色中');
    const badKind = await carol.post('/api/role/add', { name: 'X', description: '', type: 3 });
    expect(badKind.status).toBe(400);
    expect(badKind.msg).toContain('角色类型');

    // Used in a video: copied into a comic task, with the task's type; the library keeps it.
    const comic = await roleTask(carol, { type: 0 });
    const used = await carol.post('/api/library/add_role_to_task', {
      roleId: hero.roleId,
      taskId: comic,
    });
    expect(used.data).toMatchObject({ taskId: comic, name: '林动', type: 0, seed: hero.seed });
    const roles = (await carol.get(`/api/role/get_roles?taskId=${comic}`)).data as Role[];
    expect(roles.map((r) => r.name)).toEqual(['林动']);
    expect((await library(carol)).total).toBe(3);

    // Deleted from the library: gone from it, the copy in the task stays.
    expect((await carol.get(`/api/role/delete?roleId=${hero.roleId}`)).code).toBe(0);
    expect((await library(carol)).items.map((r) => r.name)).toEqual(['小貂', 'Alice']);
    expect((await carol.get(`/api/role/get_roles?taskId=${comic}`)).data).toHaveLength(1);
  });

  it('shows no one else’s roles and lets no one else touch them', async () => {
    const owner = await signedInClient(app);
    const other = await signedInClient(app);
    const mine = (await owner.post('/api/role/add', { name: '私有角色', description: '', type: 0 }))
      .data as Role;
    expect(await library(other)).toEqual({ items: [], total: 0 });
    const task = await roleTask(other, { type: 0 });
    const answers = await Promise.all([
      other.post('/api/role/update', { roleId: mine.roleId, revision: 1, name: '改名' }),
      other.get(`/api/role/delete?roleId=${mine.roleId}`),
      other.post('/api/role/re_gen_img', { roleId: mine.roleId }),
      other.post('/api/library/add_role_to_task', { roleId: mine.roleId, taskId: task }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404]);
    expect((await library(owner)).items).toMatchObject([{ name: '私有角色' }]);
    // Signed out: the library asks for a sign-in like every other call.
    const anonymous = await app.inject({ method: 'GET', url: '/api/library/roles' });
    expect(anonymous.json()).toMatchObject({ code: 401 });
  });
});
