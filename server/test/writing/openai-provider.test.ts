import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createOpenAiTextModel, type OpenAiTextOptions } from '../../src/providers/text';
import { modelWriter } from '../../src/writing/model-writer';
import { type TextRequest } from '../../src/writing/types';
import { ProviderError } from '../../src/providers/errors';
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai';

/** Writing with the OpenAI-compatible model, as the writing plugin builds it. */
const createOpenAiProvider = (options: OpenAiTextOptions) =>
  modelWriter(createOpenAiTextModel(options));

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake.close();
});

const request: TextRequest = {
  kind: 'promo',
  bookTitle: '青灯照剑',
  length: 200,
  source: [{ title: '第一章 守灯人', text: '林默在这里守了七年。每天清晨添油，黄昏剪芯。' }],
};

function provider(overrides: { timeoutMs?: number; maxRetries?: number; apiKey?: string } = {}) {
  return createOpenAiProvider({
    baseUrl: fake.baseUrl,
    apiKey: overrides.apiKey ?? 'sk-test',
    model: 'fake-model',
    timeoutMs: overrides.timeoutMs ?? 2_000,
    maxRetries: overrides.maxRetries ?? 2,
    retryBaseMs: 20,
  });
}

async function collect(p: ReturnType<typeof provider>, signal = new AbortController().signal) {
  const pieces: string[] = [];
  for await (const piece of p.stream(request, signal)) pieces.push(piece);
  return pieces;
}

async function failure(p: ReturnType<typeof provider>): Promise<ProviderError> {
  try {
    await collect(p);
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a ProviderError');
}

describe('OpenAI-compatible provider against a Chat Completions server', () => {
  it('streams the tokens in order and sends model, messages, stream and the key', async () => {
    fake.script.push({ type: 'stream', tokens: ['他被', '逐出', '山门，', '却握住了一柄剑。'] });
    const before = fake.requests.length;
    const pieces = await collect(provider());
    expect(pieces).toEqual(['他被', '逐出', '山门，', '却握住了一柄剑。']);
    const sent = fake.requests[before];
    expect(sent?.headers.authorization).toBe('Bearer sk-test');
    expect(sent?.body).toMatchObject({ model: 'fake-model', stream: true });
    const messages = sent?.body.messages as Array<{ role: string; content: string }>;
    expect(messages[0]?.role).toBe('system');
    expect(messages[1]?.content).toContain('林默在这里守了七年');
    expect(messages[1]?.content).toContain('推文');
    expect(provider().label).toContain('fake-model');
  });

  it('401: key invalid, not retried', async () => {
    const before = fake.requests.length;
    fake.script.push({
      type: 'error',
      status: 401,
      message: 'Incorrect API key provided',
      code: 'invalid_api_key',
      errorType: 'invalid_request_error',
    });
    const error = await failure(provider());
    expect(error.failure).toBe('unauthorized');
    expect(error.message).toMatch(/fake-model.*API Key 无效/);
    expect(fake.requests.length - before).toBe(1);
  });

  it('402: insufficient balance, not retried', async () => {
    const before = fake.requests.length;
    fake.script.push({ type: 'error', status: 402, message: 'Insufficient Balance' });
    const error = await failure(provider());
    expect(error.message).toContain('余额不足');
    expect(error.message).toContain('Insufficient Balance');
    expect(fake.requests.length - before).toBe(1);
  });

  it('400: rejected with the upstream reason, not retried', async () => {
    const before = fake.requests.length;
    fake.script.push({ type: 'error', status: 400, message: 'Model Not Exist' });
    const error = await failure(provider());
    expect(error.failure).toBe('rejected');
    expect(error.message).toContain('Model Not Exist');
    expect(fake.requests.length - before).toBe(1);
  });

  it('429 then success: retried with backoff', async () => {
    const before = fake.requests.length;
    fake.script.push(
      { type: 'error', status: 429, message: 'Rate limit reached', code: 'rate_limit_exceeded' },
      { type: 'stream', tokens: ['重试', '成功'] },
    );
    expect(await collect(provider())).toEqual(['重试', '成功']);
    expect(fake.requests.length - before).toBe(2);
  });

  it('429 every time: retried, then the rate-limit message', async () => {
    const before = fake.requests.length;
    for (let i = 0; i < 3; i++)
      fake.script.push({ type: 'error', status: 429, message: 'Rate limit reached' });
    const error = await failure(provider({ maxRetries: 2 }));
    expect(error.failure).toBe('rateLimited');
    expect(error.message).toContain('请求过于频繁');
    expect(error.message).toContain('已重试 2 次');
    expect(fake.requests.length - before).toBe(3);
  });

  it('500: retried, then the server-error message', async () => {
    fake.script.push(
      { type: 'error', status: 500, message: 'boom' },
      { type: 'error', status: 503, message: 'overloaded' },
    );
    const error = await failure(provider({ maxRetries: 1 }));
    expect(error.failure).toBe('server');
    expect(error.message).toContain('服务出错（503');
  });

  it('a server that never answers: timeout', async () => {
    fake.script.push({ type: 'hang' });
    const started = Date.now();
    const error = await failure(provider({ timeoutMs: 1_000 }));
    expect(error.failure).toBe('timeout');
    expect(error.message).toContain('响应超时');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a stream that stops mid-way: timeout too', async () => {
    fake.script.push({ type: 'hangAfter', tokens: ['半句'] });
    const error = await failure(provider({ timeoutMs: 1_000 }));
    expect(error.failure).toBe('timeout');
  });

  it('an empty stream: empty answer', async () => {
    fake.script.push({ type: 'empty' });
    const error = await failure(provider());
    expect(error.failure).toBe('empty');
    expect(error.message).toContain('返回了空内容');
  });

  it('a malformed stream: cannot parse', async () => {
    fake.script.push({ type: 'malformed' });
    const error = await failure(provider());
    expect(error.message).toMatch(/无法解析|连接中断/);
  });

  it('nothing listening: unreachable, named', async () => {
    const p = createOpenAiProvider({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: '',
      model: 'm',
      timeoutMs: 2_000,
      maxRetries: 1,
      retryBaseMs: 10,
    });
    const error = await failure(p);
    expect(error.failure).toBe('unreachable');
    expect(error.message).toContain('无法连接文本模型服务 m（127.0.0.1:9）');
  });

  it('stops when the caller aborts', async () => {
    fake.script.push({
      type: 'stream',
      tokens: Array.from({ length: 50 }, (_, i) => `${i}`),
      delayMs: 20,
    });
    const controller = new AbortController();
    const pieces: string[] = [];
    await expect(
      (async () => {
        for await (const piece of provider().stream(request, controller.signal)) {
          pieces.push(piece);
          if (pieces.length === 3) controller.abort(new Error('cancelled'));
        }
      })(),
    ).rejects.toThrow();
    expect(pieces.length).toBeLessThan(10);
  });
});
