import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { ExtractedRoles, TaskRef } from '@kol/shared-sdk/contracts';
import { LOCAL_EXTRACTION_ENGINE } from '../../src/roles/extract';
import { createTestApp } from '../helpers/test-app';
import { startFakeOpenAi, type FakeOpenAi } from '../writing/fake-openai';
import { signedInClient, type Client } from '../writing/helpers';

let app: FastifyInstance;
let fake: FakeOpenAi;
let alice: Client;

const STORY = '林动背着竹篓走出小镇。苏柔站在桥头。苏柔说：“早点回来。”林动点点头。';

beforeAll(async () => {
  fake = await startFakeOpenAi();
  ({ app } = await createTestApp({
    llm: {
      baseUrl: fake.baseUrl,
      apiKey: 'k',
      model: 'fake-model',
      timeoutMs: 5_000,
      maxRetries: 0,
    },
  }));
  alice = await signedInClient(app);
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

async function extract(): Promise<ExtractedRoles> {
  const { taskId } = (await alice.post('/api/role/init_task', { type: 0 })).data as TaskRef;
  const answer = await alice.post('/api/role/extract_roles', { taskId, text: STORY });
  expect(answer.code).toBe(0);
  return answer.data as ExtractedRoles;
}

describe('role extraction through the chat model', () => {
  it('repairs or re-asks a broken JSON answer, then takes the model’s roles', async () => {
    const before = fake.requests.length;
    fake.script.push(
      // Not JSON at all: the model is asked again with what was wrong.
      { type: 'message', content: '好的，角色有：林动、苏柔' },
      // A code fence and a trailing comma: repaired, no third ask.
      {
        type: 'message',
        content:
          '```json\n{"roles": [{"name": "林动", "description": "十六岁少年，黑发，青布衣"}, {"name": "苏柔", "description": "白衣少女，长发"},]}\n```',
      },
    );
    const { roles, engine } = await extract();
    expect(engine).toBe(`fake-model（${new URL(fake.baseUrl).host}）`);
    expect(roles.map((r) => [r.name, r.description])).toEqual([
      ['林动', '十六岁少年，黑发，青布衣'],
      ['苏柔', '白衣少女，长发'],
    ]);
    const asks = fake.requests.slice(before);
    expect(asks).toHaveLength(2);
    const messages = asks[0]?.body.messages as Array<{ role: string; content: string }>;
    expect(messages[1]?.content).toBe(STORY);
    const retry = asks[1]?.body.messages as Array<{ content: string }>;
    expect(retry.at(-1)?.content).toContain('不是合法的 JSON');
  });

  it('falls back to the local heuristic when the model cannot answer, and says why', async () => {
    fake.script.push(
      { type: 'message', content: 'no' },
      { type: 'message', content: '{"roles": "none"}' },
      { type: 'message', content: 'still no' },
    );
    const broken = await extract();
    expect(broken.engine).toContain(`${LOCAL_EXTRACTION_ENGINE}（`);
    expect(broken.engine).toContain('fake-model');
    expect(broken.roles.map((r) => r.name)).toEqual(['林动', '苏柔']);

    fake.script.push({ type: 'error', status: 401, message: 'bad key' });
    const refused = await extract();
    expect(refused.engine).toContain('API Key');
    expect(refused.roles.map((r) => r.name)).toEqual(['林动', '苏柔']);
  });
});
