import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadImage } from '@napi-rs/canvas';
import type { ImageProviderConfig } from '../../src/config';
import { LOCAL_FALLBACK_LABEL, LOCAL_FRAME_LABEL } from '@kol/shared-sdk/contracts';
import { renderFrame } from '../../src/video/engine/frames/render-frame';
import { comfySize, createComfyUiProvider, fillWorkflow } from '../../src/providers/images/comfyui';
import { imageProviderFrom } from '../../src/providers/images';
import { drawShotImage, imageEngines } from '../../src/video/pipelines/kit/draw';
import { createOpenAiImageProvider, openAiSize } from '../../src/providers/images/openai';
import {
  buildShotPrompt,
  rolesIn,
  stableSeed,
  type RoleLook,
} from '../../src/video/pipelines/kit/prompt';
import { imageStyleOf, loraList } from '../../src/video/library/image-styles';
import { ProviderError } from '../../src/providers/errors';
import {
  solidPng,
  startFakeComfy,
  startFakeImages,
  type FakeComfy,
  type FakeImages,
} from './fake-image-servers';

const signal = () => new AbortController().signal;
/** The error a drawing ends with; a drawing that succeeds fails the test. */
const failureOf = (drawing: Promise<unknown>) =>
  drawing.then(
    () => {
      throw new Error('expected the drawing to fail');
    },
    (error: unknown) => error as ProviderError,
  );
const dir = mkdtempSync(path.join(os.tmpdir(), 'kol-images-'));

let images: FakeImages;
let comfy: FakeComfy;
beforeAll(async () => {
  [images, comfy] = await Promise.all([startFakeImages(), startFakeComfy()]);
});
afterAll(async () => {
  await Promise.all([images.close(), comfy.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const openAiConfig = (overrides: Partial<Extract<ImageProviderConfig, { kind: 'openai' }>> = {}) =>
  ({
    kind: 'openai',
    baseUrl: images.apiUrl,
    apiKey: 'sk-test',
    model: 'fake-image',
    portraitSize: '1024x1792',
    timeoutMs: 5_000,
    ...overrides,
  }) as const;

const comfyConfig = (overrides: Partial<Extract<ImageProviderConfig, { kind: 'comfyui' }>> = {}) =>
  ({
    kind: 'comfyui',
    url: comfy.baseUrl,
    workflowPath: null,
    checkpoint: 'test-model.safetensors',
    timeoutMs: 5_000,
    ...overrides,
  }) as const;

const request = { prompt: '山间小庙', width: 1080, height: 1920, seed: 42 };

const linDong: RoleLook = {
  roleId: 1,
  name: '林动',
  description: '十六岁少年，黑发，青色布衣',
  seed: 111,
  referenceImagePath: '/data/media/1/a/image.jpg',
};
const lin: RoleLook = {
  roleId: 2,
  name: '林',
  description: '老者',
  seed: 222,
  referenceImagePath: null,
};
const suRou: RoleLook = {
  roleId: 3,
  name: '苏柔',
  description: '白衣少女',
  seed: 333,
  referenceImagePath: null,
};

describe('shot prompts keep each role the same', () => {
  it('finds the roles a caption names, in its order, a short name not inside a longer one', () => {
    expect(rolesIn('苏柔看着林动。', [linDong, lin, suRou]).map((r) => r.name)).toEqual([
      '苏柔',
      '林动',
    ]);
    expect(rolesIn('林动和林说话', [lin, linDong]).map((r) => r.name)).toEqual(['林动', '林']);
    expect(rolesIn('空山新雨后', [linDong, suRou])).toEqual([]);
  });

  it('adds the present roles’ fixed descriptions and the style, with the first role’s seed and picture', () => {
    const style = imageStyleOf(2);
    const built = buildShotPrompt({
      prompt: '雨夜，街口',
      caption: '林动撑着伞，苏柔跟在身后。',
      roles: [suRou, linDong],
      style,
      seedKey: 'task:3',
    });
    expect(built.prompt).toBe(
      `雨夜，街口\n画面中的角色：林动（十六岁少年，黑发，青色布衣）；苏柔（白衣少女）\n画风：${style?.prompt}`,
    );
    expect(built.seed).toBe(111);
    expect(built.referenceImagePath).toBe('/data/media/1/a/image.jpg');
    expect(built.present.map((r) => r.roleId)).toEqual([1, 3]);
    expect(built.negativePrompt).toContain('watermark');
  });

  it('shows who speaks in the shot though the caption does not name them', () => {
    const built = buildShotPrompt({
      prompt: '雨夜，街口',
      caption: '“走吧。”她轻声说。',
      roles: [suRou, linDong],
      speakers: ['苏柔'],
      style: null,
      seedKey: 'task:4',
    });
    expect(built.present.map((r) => r.name)).toEqual(['苏柔']);
    expect(built.prompt).toContain('苏柔（白衣少女）');
  });

  it('seeds a shot without roles from its key: stable, and different per shot', () => {
    const a = buildShotPrompt({
      prompt: '远山',
      caption: '远山',
      roles: [linDong],
      style: null,
      seedKey: 't:1',
    });
    const again = buildShotPrompt({
      prompt: '远山',
      caption: '远山',
      roles: [],
      style: null,
      seedKey: 't:1',
    });
    const b = buildShotPrompt({
      prompt: '远山',
      caption: '远山',
      roles: [],
      style: null,
      seedKey: 't:2',
    });
    expect(a.prompt).toBe('远山');
    expect(a.seed).toBe(stableSeed('t:1'));
    expect(again.seed).toBe(a.seed);
    expect(b.seed).not.toBe(a.seed);
    expect(a.seed).toBeGreaterThan(0);
    expect(a.seed).toBeLessThan(2 ** 31);
    expect(a.referenceImagePath).toBeUndefined();
  });

  it('lists the styles get_loras serves and the engines version_list serves', () => {
    const styles = loraList();
    expect(styles.length).toBeGreaterThanOrEqual(4);
    expect(new Set(styles.map((s) => s.id)).size).toBe(styles.length);
    expect(imageStyleOf(999)).toBeNull();
    expect(imageEngines(null)).toEqual([
      expect.objectContaining({ id: 1, name: LOCAL_FRAME_LABEL }),
    ]);
    const engines = imageEngines(imageProviderFrom(openAiConfig()));
    expect(engines.map((e) => e.name)).toEqual([
      `fake-image（127.0.0.1:${new URL(images.apiUrl).port}）`,
      LOCAL_FRAME_LABEL,
    ]);
  });
});

describe('OpenAI-compatible images provider', () => {
  it('asks /images/generations for b64_json at the size of the aspect', async () => {
    images.respond = () => ({ type: 'b64' });
    const provider = createOpenAiImageProvider(openAiConfig());
    const bytes = await provider.draw(request, signal());
    expect(bytes.equals(images.picture)).toBe(true);
    const seen = images.requests.at(-1);
    expect(seen?.headers.authorization).toBe('Bearer sk-test');
    expect(seen?.body).toEqual({
      model: 'fake-image',
      prompt: '山间小庙',
      size: '1024x1792',
      n: 1,
      response_format: 'b64_json',
    });
    expect(openAiSize('1024x1536', 1920, 1080)).toBe('1536x1024');
    expect(openAiSize('1024x1792', 500, 500)).toBe('1024x1024');
  });

  it('draws a shot of roles with pictures from them (/images/edits), else by generations', async () => {
    images.respond = () => ({ type: 'b64' });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kol-refs-'));
    const lin = path.join(dir, 'lin.png');
    const su = path.join(dir, 'su.png');
    writeFileSync(lin, solidPng('rgb(10, 20, 30)'));
    writeFileSync(su, solidPng('rgb(200, 20, 30)'));
    const provider = createOpenAiImageProvider(openAiConfig());
    const generations = images.requests.length;
    await provider.draw({ ...request, referenceImagePaths: [lin, su] }, signal());
    const edit = images.edits.at(-1);
    expect(edit?.fields).toMatchObject({
      model: 'fake-image',
      prompt: '山间小庙',
      size: '1024x1792',
    });
    expect(edit?.images.map((bytes) => bytes.equals(solidPng('rgb(10, 20, 30)')))).toEqual([
      true,
      false,
    ]);
    expect(edit?.images[1]?.equals(solidPng('rgb(200, 20, 30)'))).toBe(true);
    expect(images.requests).toHaveLength(generations);

    // A service without the edit endpoint: generations, for this picture and the next ones.
    images.editsSupported = false;
    const edits = images.edits.length;
    await provider.draw({ ...request, referenceImagePaths: [lin] }, signal());
    await provider.draw({ ...request, referenceImagePaths: [lin] }, signal());
    expect(images.requests).toHaveLength(generations + 2);
    expect(images.edits).toHaveLength(edits);
    images.editsSupported = true;
    rmSync(dir, { recursive: true, force: true });
  });

  it('follows a url answer', async () => {
    images.respond = () => ({ type: 'url' });
    const bytes = await createOpenAiImageProvider(openAiConfig()).draw(request, signal());
    expect(bytes.equals(images.picture)).toBe(true);
  });

  it('names the host and the cause of every failure in Chinese', async () => {
    const provider = createOpenAiImageProvider(openAiConfig());
    const host = new URL(images.apiUrl).host;
    const failure = async () => {
      const error = await provider.draw(request, signal()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as Error).message).toContain(host);
      return error as ProviderError;
    };
    const cases: Array<[number, string, string]> = [
      [401, 'unauthorized', 'IMAGE_API_KEY'],
      [402, 'balance', '余额不足'],
      [429, 'rateLimited', '429'],
      [500, 'server', '服务出错（500）'],
      [400, 'rejected', '拒绝了请求（400）'],
    ];
    for (const [status, kind, words] of cases) {
      images.respond = () => ({ type: 'error', status, message: 'upstream words' });
      const error = await failure();
      expect(error.failure).toBe(kind);
      expect(error.message).toContain(words);
      expect(error.message).toContain('upstream words');
    }
    images.respond = () => ({ type: 'garbage' });
    expect((await failure()).failure).toBe('malformed');
    images.respond = () => ({ type: 'notPicture' });
    expect((await failure()).message).toContain('不是 PNG、JPEG 或 WebP');
    images.respond = () => ({ type: 'hang' });
    const slow = createOpenAiImageProvider(openAiConfig({ timeoutMs: 300 }));
    const timeout = await failureOf(slow.draw(request, signal()));
    expect(timeout.failure).toBe('timeout');
    expect(timeout.message).toContain('响应超时');
  });

  it('says an address that answers nothing is unreachable, and a cancel stays a cancel', async () => {
    const closed = await startFakeImages();
    await closed.close();
    const provider = createOpenAiImageProvider(openAiConfig({ baseUrl: closed.apiUrl }));
    const error = await failureOf(provider.draw(request, signal()));
    expect(error.failure).toBe('unreachable');
    expect(error.message).toContain(
      `无法连接图像服务 fake-image（${new URL(closed.apiUrl).host}）`,
    );

    images.respond = () => ({ type: 'hang' });
    const controller = new AbortController();
    const drawing = createOpenAiImageProvider(openAiConfig()).draw(request, controller.signal);
    setTimeout(() => controller.abort(new Error('cancelled')), 50);
    await expect(drawing).rejects.toThrow('cancelled');
  });
});

describe('ComfyUI provider', () => {
  it('queues the workflow with the seed, size and prompt, polls the history, fetches the picture', async () => {
    comfy.behaviour = 'ok';
    comfy.pendingPolls = 2;
    const provider = createComfyUiProvider(comfyConfig(), { pollMs: 20 });
    expect(provider.label).toBe(`ComfyUI（${new URL(comfy.baseUrl).host}）`);
    const polls = comfy.historyPolls;
    const bytes = await provider.draw({ ...request, negativePrompt: '模糊' }, signal());
    expect(bytes.equals(comfy.picture)).toBe(true);
    expect(comfy.historyPolls - polls).toBe(3);
    const nodes = comfy.prompts.at(-1)?.prompt ?? {};
    expect(nodes['3']?.inputs.seed).toBe(42);
    expect(nodes['5']?.inputs).toMatchObject({ width: 576, height: 1024, batch_size: 1 });
    expect(nodes['6']?.inputs.text).toBe('山间小庙');
    expect(nodes['7']?.inputs.text).toBe('模糊');
    expect(nodes['4']?.inputs.ckpt_name).toBe('test-model.safetensors');
    expect(comfy.views.at(-1)).toMatch(/^kol_.+\.png$/);
    expect(comfySize(1920, 1080)).toEqual({ width: 1024, height: 576 });
  });

  it('reports a failed run, a refused workflow and a timeout (leaving the queue) in Chinese', async () => {
    const provider = createComfyUiProvider(comfyConfig(), { pollMs: 20 });
    comfy.behaviour = 'executionError';
    const failed = await failureOf(provider.draw(request, signal()));
    expect(failed.failure).toBe('server');
    expect(failed.message).toContain('CheckpointLoaderSimple：ckpt not found');
    expect(failed.message).toContain(new URL(comfy.baseUrl).host);

    comfy.behaviour = 'refused';
    const refused = await failureOf(provider.draw(request, signal()));
    expect(refused.failure).toBe('rejected');
    expect(refused.message).toContain('Prompt outputs failed validation');

    comfy.behaviour = 'hang';
    const slow = createComfyUiProvider(comfyConfig({ timeoutMs: 300 }), { pollMs: 20 });
    const timeout = await failureOf(slow.draw(request, signal()));
    expect(timeout.failure).toBe('timeout');
    expect(comfy.deleted).toContain(comfy.prompts.at(-1)?.id);
    comfy.behaviour = 'ok';
  });

  it('uploads the reference picture for a workflow that takes one', async () => {
    const workflowPath = path.join(dir, 'workflow.json');
    writeFileSync(
      workflowPath,
      JSON.stringify({
        '1': { class_type: 'LoadImage', inputs: { image: '%reference_image%' } },
        '2': { class_type: 'KSampler', inputs: { seed: '%seed%', note: 'size %width%x%height%' } },
      }),
    );
    const reference = path.join(dir, 'ref.png');
    writeFileSync(reference, solidPng());
    const provider = createComfyUiProvider(comfyConfig({ workflowPath }), { pollMs: 20 });
    await provider.draw({ ...request, referenceImagePath: reference }, signal());
    expect(comfy.uploads.at(-1)?.name).toBe('ref.png');
    const nodes = comfy.prompts.at(-1)?.prompt ?? {};
    expect(nodes['1']?.inputs.image).toBe('ref.png');
    expect(nodes['2']?.inputs).toEqual({ seed: 42, note: 'size 576x1024' });
    const without = await failureOf(provider.draw(request, signal()));
    expect(without.message).toContain('需要参考图');
    expect(fillWorkflow({ a: ['%seed%', '%unknown%'] }, { seed: 7 })).toEqual({
      a: [7, '%unknown%'],
    });
  });
});

describe('drawShotImage', () => {
  const shot = {
    prompt: '夜晚的街道',
    caption: '林动走在街上。',
    roles: [linDong],
    style: null,
    seedKey: 't:0',
    width: 216,
    height: 384,
  };

  it('uses the provider’s picture as JPEG, naming it as the engine', async () => {
    images.respond = () => ({ type: 'b64' });
    const drawn = await drawShotImage(createOpenAiImageProvider(openAiConfig()), shot, signal());
    expect(drawn).toMatchObject({ needsRegeneration: false, error: null });
    expect(drawn.engine).toContain('fake-image');
    const picture = await loadImage(drawn.jpeg);
    expect([picture.width, picture.height]).toEqual([72, 128]);
    expect(drawn.jpeg.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(drawn.present.map((r) => r.name)).toEqual(['林动']);
  });

  it('falls back to the local frame when the provider fails, marked for regeneration', async () => {
    images.respond = () => ({ type: 'error', status: 503, message: 'overloaded' });
    const drawn = await drawShotImage(createOpenAiImageProvider(openAiConfig()), shot, signal());
    expect(drawn.engine).toBe(LOCAL_FALLBACK_LABEL);
    expect(drawn.needsRegeneration).toBe(true);
    expect(drawn.error).toContain('服务出错（503）');
    expect(drawn.error).toContain(new URL(images.apiUrl).host);
    const picture = await loadImage(drawn.jpeg);
    expect([picture.width, picture.height]).toEqual([216, 384]);
  });

  it('offline, the local frame is the engine; a style changes its palette', async () => {
    const plain = await drawShotImage(null, shot, signal());
    expect(plain).toMatchObject({
      engine: LOCAL_FRAME_LABEL,
      needsRegeneration: false,
      error: null,
    });
    const inked = await drawShotImage(null, { ...shot, style: imageStyleOf(2) }, signal());
    expect(inked.jpeg.equals(plain.jpeg)).toBe(false);
    // The same shot draws the same frame: a resumed or repeated render does not flicker.
    expect((await drawShotImage(null, shot, signal())).jpeg.equals(plain.jpeg)).toBe(true);
    // Scene words pick the colours: a night is darker than a bright morning.
    const brightness = async (scene: string) => {
      const { createCanvas } = await import('@napi-rs/canvas');
      const img = await loadImage(renderFrame({ scene, width: 90, height: 160 }));
      const canvas = createCanvas(90, 160);
      const ctx = canvas.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, 90, 160).data;
      let sum = 0;
      for (let i = 0; i < data.length; i += 4)
        sum += (data[i] ?? 0) + (data[i + 1] ?? 0) + (data[i + 2] ?? 0);
      return sum / (data.length / 4);
    };
    expect(await brightness('深夜的小巷')).toBeLessThan(await brightness('清晨的阳光'));
  });
});
