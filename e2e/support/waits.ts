import type { Locator, Page } from 'playwright-core';
import { screenshot } from './platform';

/** How long a video of a test's few sentences may take to render on a busy 2-core machine. */
export const RENDER_LIMIT_MS = 5 * 60_000;

/**
 * Resolves with the first truthy answer of `check`, asked every `everyMs`; after `limitMs` it
 * fails naming `what` did not happen. For what the page or the server shows only after a while
 * (a saved field, a loaded picture, a worker's start).
 */
export async function until<T>(
  what: string,
  check: () => Promise<T | null | false | undefined>,
  limitMs = 30_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not so within ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Follows a task's card on `/video/production` until it says 已完成, as a creator watches it:
 * the stages (正在…, 排队 for queued) and percentages it showed, in order. A picture of the page
 * is kept (as `picture`) the first time the card shows a running stage with its progress bar.
 * The card's alert (a failed task) fails the wait with its text.
 */
export async function watchProduction(
  page: Page,
  card: Locator,
  picture: string,
): Promise<{ stages: string[]; percents: number[] }> {
  const stages: string[] = [];
  const percents: number[] = [];
  let pictured = false;
  const deadline = Date.now() + RENDER_LIMIT_MS;
  while (Date.now() < deadline) {
    const text = (await card.textContent()) ?? '';
    const stage =
      /正在(\S+?)(?: ·|更新于|$)/.exec(text)?.[1] ?? (text.includes('排队中') ? '排队' : null);
    if (stage && stages.at(-1) !== stage) stages.push(stage);
    // One read of the bar's value, or none when it is gone: counting it first and reading it
    // after was a race with the task's end (the bar leaves with 已完成, and the read then
    // waited for a bar that never came back).
    const [value] = await card
      .getByLabel('生成进度')
      .evaluateAll((bars) => bars.map((bar) => bar.getAttribute('aria-valuenow')));
    if (value !== undefined) {
      const percent = Number(value ?? NaN);
      if (Number.isFinite(percent) && percents.at(-1) !== percent) percents.push(percent);
      if (!pictured && stage && stage !== '排队') {
        await screenshot(page, picture);
        pictured = true;
      }
    }
    if (await card.getByText('已完成', { exact: true }).count()) return { stages, percents };
    if (await card.getByRole('alert').count()) {
      throw new Error(`the task failed: ${(await card.getByRole('alert').textContent()) ?? ''}`);
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`the task was not made within ${RENDER_LIMIT_MS / 60_000} minutes`);
}
