import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import {
  api,
  createUserOn,
  grantQuotaOn,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
} from '../support/platform';
import { startPlatform, type StartedPlatform } from '../support/start-platform';

/**
 * An OpenAI-compatible images API that is down: every generation answers 503 with the API's
 * error body, as a real provider does when it is overloaded.
 */
let provider: Server;
let platform: StartedPlatform;
let browser: Browser;
let asked = 0;

beforeAll(async () => {
  browser = await launchBrowser();
  provider = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/images/generations') asked += 1;
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: 'The engine is currently overloaded', type: 'server_error' },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const { port } = provider.address() as AddressInfo;
  platform = await startPlatform({
    IMAGE_BASE_URL: `http://127.0.0.1:${port}/v1`,
    IMAGE_MODEL: 'test-image',
    IMAGE_API_KEY: 'sk-test',
    IMAGE_TIMEOUT_MS: '5000',
  });
}, 15 * 60_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await new Promise((resolve) => provider?.close(resolve));
});

/** Rendering on 2 cores shared with other work: a limit against hangs, not a target. */
const RENDER_LIMIT_MS = 5 * 60_000;

describe('the quality report (issue 17)', () => {
  it(
    'shows the shots that fell back to the local frame on the result page, with a link to redraw them, and 需检查 on the work’s card',
    async () => {
      const { username, password } = await createUserOn(platform, { templateIds: '0,1,2,3,4,5,6' });
      await grantQuotaOn(platform, username, 'comics', { gen: 1 });
      const { context, page } = await newPage(browser, undefined, platform.url);
      await signIn(page, username, password);

      // A short comic clip made through the API: its pictures are asked of the broken provider.
      const title = `报告${username}`;
      const { workId } = await api<{ workId: number }>(page, '/api/video/save_text', {
        type: 0,
        title,
        text: '夜里下起了雨。林舟撑伞走过石桥。桥头的灯忽明忽暗。',
      });
      const { taskId } = await api<{ taskId: string }>(page, '/api/video/gen_video', { workId });
      const deadline = Date.now() + RENDER_LIMIT_MS;
      for (;;) {
        const result = await api<{ state: string; error: string | null }>(
          page,
          `/api/video/get_work_result?taskId=${encodeURIComponent(taskId)}`,
        );
        if (result.state === 'succeeded') break;
        if (result.state === 'failed') throw new Error(`the video failed: ${result.error ?? ''}`);
        if (Date.now() > deadline) throw new Error('the video was not made in time');
        await page.waitForTimeout(250);
      }
      expect(asked).toBeGreaterThan(0);

      // The result page: the report's figures, and the fallback as a warning with its link.
      await page.goto(`/video/short/${encodeURIComponent(taskId)}`);
      const card = page.locator('.ant-card').filter({ hasText: '质量报告' });
      await card.getByText('LUFS（目标 -16 LUFS）').waitFor();
      const warning = card.getByRole('alert').filter({ hasText: '使用了本地画面' });
      await warning.waitFor();
      expect(await warning.textContent()).toMatch(/第 1(、\d+)* 镜使用了本地画面（图像服务出错）/);
      await screenshot(page, 'quality-report');
      await warning.getByRole('link', { name: '重新生成画面' }).click();
      await page.waitForURL((url) => url.pathname === `/video/promptWord/${workId}`);

      // My works: the card says to look.
      await page.goto('/work/comics?tab=works');
      await page.getByLabel(`${title} 需检查`).waitFor();
      await context.close();
    },
    RENDER_LIMIT_MS + 60_000,
  );
});
