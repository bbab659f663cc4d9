import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { startPlatform, type StartedPlatform } from '../support/start-platform';
import {
  createUser,
  createUserOn,
  grantQuota,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
} from '../support/platform';
import { expectCleanPage, standStill } from '../support/audit';

let browser: Browser;

/**
 * The provider's platform (startProvider, below), started with the file so that it boots while
 * the first test runs on the shared platform rather than after it; awaited, and a failure
 * reported, by the describe that uses it.
 */
let providerStarting: Promise<{ provider: http.Server; platform: StartedPlatform }> | undefined;

beforeAll(async () => {
  providerStarting = startProvider();
  providerStarting.catch(() => undefined);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  const started = await providerStarting?.catch(() => undefined);
  await started?.platform.stop();
  await new Promise((resolve) => started?.provider.close(resolve) ?? resolve(undefined));
}, 120_000);

/** Samples the result text while it is written: every distinct length seen, in order. */
/**
 * Clicks 生成 and follows the result until the generation ends; answers the result's lengths as
 * they changed. Sampled in the page at every frame, from before the click: two round trips per
 * sample from the test were seen to miss the stream's steps on a busy machine.
 */
async function generateAndWatch(page: Page): Promise<number[]> {
  await page.evaluate(() => {
    const state = window as unknown as { kolLengths: number[] };
    state.kolLengths = [];
    const sample = () => {
      const box = document.querySelector<HTMLTextAreaElement>('[data-testid="result-text"]');
      const length = box?.value.length ?? 0;
      if (length > 0 && state.kolLengths.at(-1) !== length) state.kolLengths.push(length);
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  await page.getByTestId('generate').click();
  await page
    .getByTestId('generation-status')
    .filter({ hasText: /已完成|失败/ })
    .waitFor({ timeout: 30_000 });
  return page.evaluate(() => (window as unknown as { kolLengths: number[] }).kolLengths);
}

/** Searches the sample book 雾港来信, picks its first two chapters, and generates promo copy. */
async function generatePromo(page: Page): Promise<number[]> {
  await page.goto('/generate');
  await page.getByLabel('搜索书籍').fill('雾港');
  await page.getByLabel('搜索书籍').press('Enter');
  await page.getByRole('button', { name: '选择 雾港来信' }).click();
  const chapters = page.getByTestId('chapter-picker').getByRole('checkbox');
  await chapters.nth(1).waitFor();
  await expectCleanPage(page, 'generate-chapters');
  // A chapter's preview, audited open, then closed.
  await page
    .getByRole('button', { name: /^预览 / })
    .first()
    .click();
  await page.getByTestId('chapter-preview').waitFor();
  await expectCleanPage(page, 'generate-chapter-preview');
  await page.getByTestId('chapter-preview-close').click();
  await page.getByTestId('chapter-preview').waitFor({ state: 'hidden' });
  // The first checkbox is 全选; the next two are the first two chapters.
  await chapters.nth(1).check();
  await chapters.nth(2).check();
  await page.getByLabel('推文文案').check();
  const lengths = await generateAndWatch(page);
  await expect(page.getByTestId('generation-status').textContent()).resolves.toContain('已完成');
  return lengths;
}

describe('writing on the embedded defaults (no provider)', () => {
  it('generates promo copy from two chapters, streams it, edits, saves, finds it in My copy, sends it to video', async () => {
    const { username, password } = await createUser({ templateIds: '0,1,2,3,4,5,6' });
    // A comics quota, or the spec's rule sends the user back from /video/config.
    await grantQuota(username, 'comics', { gen: 3 });
    const { context, page } = await newPage(browser);
    await signIn(page, username, password);

    const lengths = await generatePromo(page);
    // The text arrived in pieces, not all at once.
    expect(lengths.length).toBeGreaterThan(2);
    expect(await page.getByTestId('engine').textContent()).toContain('本地');
    await screenshot(page, 'generate-desktop');

    const result = page.getByTestId('result-text');
    const edited = `${await result.inputValue()}\n（已人工润色）`;
    await result.fill(edited);
    await page.getByTestId('save').click();
    const title = `雾港来信推文 ${username}`;
    await page.getByTestId('save-title').fill(title);
    await expectCleanPage(page, 'writing-save-dialog');
    // The dialog's own button (保存到我的文案 on the page matches the name too); the dialog
    // closes once the server has the copy.
    const dialog = page.getByRole('dialog', { name: '保存到我的文案' });
    await dialog.getByRole('button', { name: /^保\s*存$/ }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('saved-link').click();
    await page.waitForURL('**/work');

    const item = page.getByTestId('work-list').getByText(title);
    await item.waitFor();
    await screenshot(page, 'work-desktop');
    // 用于视频 asks which video type, as 发送到视频 does, and brings the text there.
    await page.getByRole('button', { name: `用于视频 ${title}` }).click();
    await page.getByTestId('video-types').waitFor();
    await expectCleanPage(page, 'works-video-type-chooser');
    await page
      .getByTestId('video-types')
      .getByRole('button', { name: /^漫剪视频/ })
      .click();
    await page.waitForURL((url) => url.pathname === '/video/config');
    await expect(page.getByLabel('视频文案').inputValue()).resolves.toBe(edited);
    await page.getByText(/^已带入文案/).waitFor();

    await page.goto('/create');
    await page.getByLabel('提示或大纲').fill('雾港邮局的柜员收到一封来自二十年后的信');
    await generateAndWatch(page);
    // Let the result buttons finish antd's fade-in before the picture is taken.
    await standStill(page);
    await screenshot(page, 'create-desktop');
    await expectCleanPage(page, 'create-result');
    // 清空版本's confirmation, audited open, then cancelled.
    await page.getByTestId('versions-clear').click();
    await page.getByText('清空全部版本？').waitFor();
    await expectCleanPage(page, 'create-versions-clear');
    await page.getByRole('button', { name: /^取\s*消$/ }).click();
    await context.close();
  });
});

/** The provider's answer, one token at a time. */
const TOKENS = ['雾港', '的', '第', '一封', '来信', '，', '写着', '：', '不要', '去', '码头', '。'];

/**
 * A test server speaking the Chat Completions streaming protocol, one token every 150 ms (slow
 * enough that a busy 2-core machine still sees the pieces arrive one by one), and a platform of
 * its own using it.
 */
async function startProvider(): Promise<{ provider: http.Server; platform: StartedPlatform }> {
  const provider = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (!req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      let index = 0;
      const timer = setInterval(() => {
        const token = TOKENS[index];
        index += 1;
        if (token === undefined) {
          clearInterval(timer);
          res.end('data: [DONE]\n\n');
          return;
        }
        const chunk = {
          id: 'c1',
          object: 'chat.completion.chunk',
          created: 0,
          model: 'test-model',
          choices: [{ index: 0, delta: { content: token }, finish_reason: null }],
        };
        res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      }, 150);
      res.on('close', () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const { port } = provider.address() as AddressInfo;
  const platform = await startPlatform({
    LLM_BASE_URL: `http://127.0.0.1:${port}/v1`,
    LLM_API_KEY: 'sk-test',
    LLM_MODEL: 'test-model',
  });
  return { provider, platform };
}

describe('writing against an OpenAI-compatible provider', () => {
  let platform: StartedPlatform;

  beforeAll(async () => {
    if (!providerStarting) throw new Error('the provider was not started');
    ({ platform } = await providerStarting);
  }, 15 * 60_000);

  it('shows the provider tokens arriving one by one', async () => {
    const { username, password } = await createUserOn(platform, { templateIds: '0,1,2,3,4,5,6' });
    const { context, page } = await newPage(browser, undefined, platform.url);
    await signIn(page, username, password);
    const lengths = await generatePromo(page);
    expect(lengths.length).toBeGreaterThan(5);
    expect(await page.getByTestId('result-text').inputValue()).toBe(TOKENS.join(''));
    expect(await page.getByTestId('engine').textContent()).toContain('test-model');
    await context.close();
  });
});
