import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TtsConfig } from '../../src/config';
import { ESPEAK_ENGINE, SENTENCE_PAUSE_MS } from '../../src/providers/speech/espeak';
import { findVoice, listAllVoices, speakSentences } from '../../src/providers/speech/index';
import { providerVoices, speakWithProvider } from '../../src/providers/speech/openai';
import { parseWav, pcmDurationMs } from '../../src/providers/speech/wav';
import { ProviderError } from '../../src/providers/errors';
import {
  FAKE_MS_PER_CHAR,
  FAKE_SAMPLE_RATE,
  startFakeSpeech,
  type FakeSpeech,
} from './fake-speech';

jest.setTimeout(60_000);

let fake: FakeSpeech;
let dir: string;
let tts: TtsConfig;

beforeAll(async () => {
  fake = await startFakeSpeech();
  dir = await mkdtemp(path.join(os.tmpdir(), 'kol-speech-'));
  tts = {
    baseUrl: fake.baseUrl,
    apiKey: 'sk-test',
    model: 'tts-test',
    voices: ['alloy', 'nova'],
    timeoutMs: 2_000,
  };
});
afterAll(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  fake.script = [];
  fake.always = null;
  fake.requests = [];
});

const failure = async (promise: Promise<unknown>): Promise<ProviderError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ProviderError))
    throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
};

describe('voices of the facade', () => {
  it('lists the provider voices first, then the offline ones, each with its engine', () => {
    const voices = listAllVoices(tts);
    expect(voices.slice(0, 2).map((v) => v.voiceId)).toEqual(['tts-alloy', 'tts-nova']);
    expect(voices[0]).toMatchObject({
      language: 'multi',
      engine: `tts-test（127.0.0.1:${new URL(fake.baseUrl).port}）`,
    });
    expect(voices.slice(2).every((v) => v.engine === ESPEAK_ENGINE)).toBe(true);
    expect(listAllVoices(null).some((v) => v.voiceId.startsWith('tts-'))).toBe(false);
    expect(findVoice(tts, 'tts-nova')?.name).toBe('nova');
    expect(findVoice(null, 'tts-nova')).toBeNull();
    expect(findVoice(tts, 'tts-echo')).toBeNull();
  });
});

describe('OpenAI-compatible /audio/speech', () => {
  it('posts the real request and decodes the WAV it answers', async () => {
    const pcm = await speakWithProvider(tts, '你好世界', { voice: 'nova', speed: 1.25 });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(fake.requests[0]?.body).toEqual({
      model: 'tts-test',
      input: '你好世界',
      voice: 'nova',
      speed: 1.25,
      response_format: 'wav',
    });
    expect(pcm.sampleRate).toBe(FAKE_SAMPLE_RATE);
    // The streamed header's 0xFFFFFFFF sizes are clamped to the bytes received.
    expect(pcmDurationMs(pcm)).toBe(Math.round((4 * FAKE_MS_PER_CHAR) / 1.25));
  });

  it('maps refusals to Chinese messages naming the provider and what to check', async () => {
    fake.script = [{ type: 'error', status: 401, message: 'Incorrect API key provided' }];
    const unauthorized = await failure(speakWithProvider(tts, '你好', { voice: 'nova', speed: 1 }));
    expect(unauthorized.failure).toBe('unauthorized');
    expect(unauthorized.message).toMatch(/配音服务 tts-test.*TTS_API_KEY.*Incorrect API key/);

    fake.script = [{ type: 'error', status: 400, message: 'unknown voice' }];
    const rejected = await failure(speakWithProvider(tts, '你好', { voice: 'nova', speed: 1 }));
    expect(rejected.failure).toBe('rejected');
    expect(rejected.message).toMatch(/TTS_VOICES/);
  });

  it('retries a 5xx once, then reports it with the retry count', async () => {
    fake.script = [{ type: 'error', status: 503, message: 'overloaded' }, { type: 'speak' }];
    const pcm = await speakWithProvider(tts, '重试', { voice: 'alloy', speed: 1, retryBaseMs: 10 });
    expect(pcmDurationMs(pcm)).toBe(2 * FAKE_MS_PER_CHAR);
    expect(fake.requests).toHaveLength(2);

    fake.always = { type: 'error', status: 500, message: 'boom' };
    const server = await failure(
      speakWithProvider(tts, '重试', { voice: 'alloy', speed: 1, retryBaseMs: 10 }),
    );
    expect(server.failure).toBe('server');
    expect(server.message).toMatch(/服务出错（500，已重试 1 次）/);
  });

  it('says so when the answer is not a WAV, when it times out, and when nobody listens', async () => {
    fake.script = [{ type: 'notWav' }];
    expect(
      (await failure(speakWithProvider(tts, '你好', { voice: 'nova', speed: 1 }))).failure,
    ).toBe('malformed');

    fake.always = { type: 'hang' };
    const slow = await failure(
      speakWithProvider({ ...tts, timeoutMs: 300 }, '你好', {
        voice: 'nova',
        speed: 1,
        retries: 0,
      }),
    );
    expect(slow.failure).toBe('timeout');
    expect(slow.message).toMatch(/响应超时/);

    const nobody = await failure(
      speakWithProvider({ ...tts, baseUrl: 'http://127.0.0.1:9/v1' }, '你好', {
        voice: 'nova',
        speed: 1,
        retries: 0,
      }),
    );
    expect(nobody.failure).toBe('unreachable');
    expect(nobody.message).toMatch(/无法连接配音服务.*TTS_BASE_URL/);
  });
});

describe('speakSentences', () => {
  it('speaks sentence by sentence through the provider, joined with the offline pause', async () => {
    const sentences = ['第一句话。', '第二句。', '第三句稍微长一点。'];
    const out = path.join(dir, 'provider.wav');
    const spoken = await speakSentences(sentences, out, { voiceId: 'tts-alloy', tts });
    expect(fake.requests.map((r) => r.body.input).sort()).toEqual([...sentences].sort());
    expect(spoken.engine).toMatch(/^tts-test/);
    expect(spoken.note).toBeUndefined();
    const lengths = sentences.map((s) => s.length * FAKE_MS_PER_CHAR);
    expect(spoken.segments.map((s) => s.text)).toEqual(sentences);
    expect(spoken.segments[0]).toMatchObject({ startMs: 0, endMs: lengths[0] });
    expect(spoken.segments[1]?.startMs).toBe((lengths[0] ?? 0) + SENTENCE_PAUSE_MS);
    const total = lengths.reduce((a, b) => a + b, 0) + 2 * SENTENCE_PAUSE_MS;
    expect(spoken.durationMs).toBe(total);
    const wav = parseWav(await readFile(out));
    expect(wav.sampleRate).toBe(FAKE_SAMPLE_RATE);
    expect(pcmDurationMs(wav)).toBe(total);
  });

  it('falls back to the offline voice with a note when the provider fails', async () => {
    fake.always = { type: 'error', status: 500, message: 'down for maintenance' };
    const out = path.join(dir, 'fallback.wav');
    const spoken = await speakSentences(['服务挂了也要能说话。'], out, {
      voiceId: 'tts-nova',
      tts,
    });
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(spoken.engine).toBe(ESPEAK_ENGINE);
    expect(spoken.note).toMatch(/服务出错.*已改用离线音色「普通话 女声」/);
    const wav = parseWav(await readFile(out));
    // espeak-ng's own rate, not the provider's.
    expect(wav.sampleRate).toBe(22_050);
    expect(spoken.durationMs).toBeGreaterThan(500);
  });

  it('speaks a provider voice offline when no provider is configured, and says so', async () => {
    const spoken = await speakSentences(['Hello there.'], path.join(dir, 'gone.wav'), {
      voiceId: 'tts-nova',
    });
    expect(fake.requests).toHaveLength(0);
    expect(spoken.engine).toBe(ESPEAK_ENGINE);
    expect(spoken.note).toMatch(/音色「tts-nova」当前不可用.*美式英语/);
  });

  it('leaves the offline voices to espeak-ng', async () => {
    const spoken = await speakSentences(['离线。'], path.join(dir, 'offline.wav'), {
      voiceId: 'espeak-cmn-m',
      tts,
    });
    expect(fake.requests).toHaveLength(0);
    expect(spoken).toMatchObject({ engine: ESPEAK_ENGINE });
    expect(spoken.note).toBeUndefined();
    expect(providerVoices(tts)).toHaveLength(2);
  });
});
