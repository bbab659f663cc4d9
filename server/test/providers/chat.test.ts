import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Type } from 'typebox';
import { askJson, createOpenAiChatModel, parseModelJson } from '../../src/providers/chat';
import { ProviderError } from '../../src/providers/errors';
import { startFakeOpenAi, type FakeOpenAi } from '../writing/fake-openai';

const Shots = Type.Object({
  shots: Type.Array(
    Type.Object({ caption: Type.String({ minLength: 1 }), seconds: Type.Number() }),
    {
      minItems: 1,
    },
  ),
});

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake.close();
});

const model = () =>
  createOpenAiChatModel({
    baseUrl: fake.baseUrl,
    apiKey: 'k',
    model: 'fake-model',
    timeoutMs: 5_000,
    maxRetries: 1,
    retryBaseMs: 5,
  });
const ask = () =>
  askJson(
    model(),
    { system: '把文本分成分镜。', user: '从前有座山。', schema: Shots, what: '分镜' },
    new AbortController().signal,
  );

describe('parseModelJson', () => {
  it('repairs what models break and refuses what is not JSON', () => {
    expect(parseModelJson('```json\n{"a": [1, 2,],}\n```')).toEqual({ a: [1, 2] });
    expect(parseModelJson('好的，结果如下：{"a": 1} 希望有帮助')).toEqual({ a: 1 });
    expect(parseModelJson('{“caption”：“山”, "n": 1}')).toEqual({ caption: '山', n: 1 });
    // Full-width quotes inside a value are the text's own and stay.
    expect(parseModelJson('{"caption": "他说“好”"}')).toEqual({ caption: '他说“好”' });
    expect(parseModelJson('我不知道')).toBeUndefined();
  });
});

describe('askJson against a Chat Completions server', () => {
  it('takes a valid answer as it is, converting numbers sent as strings', async () => {
    fake.script.push({ type: 'message', content: '{"shots":[{"caption":"山","seconds":"2.5"}]}' });
    expect(await ask()).toEqual({ shots: [{ caption: '山', seconds: 2.5 }] });
  });

  it('re-asks with what was wrong when the answer is broken, then accepts the fix', async () => {
    const before = fake.requests.length;
    fake.script.push(
      { type: 'message', content: '{"shots": [{"caption": "山", "seconds": 2' },
      { type: 'message', content: '{"shots": []}' },
      { type: 'message', content: '{"shots":[{"caption":"庙","seconds":3}]}' },
    );
    expect(await ask()).toEqual({ shots: [{ caption: '庙', seconds: 3 }] });
    const asks = fake.requests.slice(before);
    expect(asks).toHaveLength(3);
    const last = asks[2]?.body.messages as Array<{ role: string; content: string }>;
    expect(last.at(-1)?.content).toContain('JSON 不符合要求');
    expect((asks[1]?.body.messages as Array<{ content: string }>).at(-1)?.content).toContain(
      '不是合法的 JSON',
    );
  });

  it('gives up after three broken answers with a Chinese message naming the model', async () => {
    fake.script.push(
      { type: 'message', content: 'no' },
      { type: 'message', content: 'still no' },
      { type: 'message', content: '{"shots": "none"}' },
    );
    const error = await ask().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).failure).toBe('malformed');
    expect((error as Error).message).toContain('fake-model');
    expect((error as Error).message).toContain('分镜');
  });

  it('retries a 503 once and maps a 401 to the key message', async () => {
    fake.script.push(
      { type: 'error', status: 503, message: 'busy' },
      { type: 'message', content: '{"shots":[{"caption":"水","seconds":1}]}' },
    );
    expect((await ask()).shots[0]?.caption).toBe('水');
    fake.script.push({ type: 'error', status: 401, message: 'bad key' });
    await expect(ask()).rejects.toThrow(/API Key/);
  });
});
