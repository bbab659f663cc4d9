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

/**
 * 确认生成 in a confirmation dialog, then the page it leads to (`reached`). A refusal (an error
 * message) fails at once with its text. While the dialog waits on the server (its button
 * spinning) the wait goes on, up to `limitMs`. A dialog still open and idle 5 s after the click
 * got no click (seen twice in full runs on a loaded machine, never alone: the cause is not known
 * yet): it is clicked again, once, as a person would, and said on the console. A page that never
 * comes fails saying where the page was and what the dialog was doing, with a picture.
 */
export async function confirmAndReach(
  page: Page,
  dialog: Locator,
  reached: (url: URL) => boolean,
  picture: string,
  limitMs = 180_000,
): Promise<void> {
  const ok = dialog.getByRole('button', { name: '确认生成' });
  // Error messages already on screen (an earlier step's refusal, fading out) are not this
  // click's answer: marked, and left out below.
  await page
    .locator('.ant-message-error')
    .evaluateAll((errors) =>
      errors.forEach((error) => error.setAttribute('data-before-confirm', '')),
    );
  await ok.click();
  const clickedAt = Date.now();
  let clickedAgain = false;
  const deadline = clickedAt + limitMs;
  const dialogState = async () => {
    if (!(await dialog.isVisible())) return 'closed';
    return (await dialog.locator('.ant-btn-loading').count()) > 0
      ? 'still waiting on the server'
      : 'open and idle';
  };
  for (;;) {
    if (reached(new URL(page.url()))) return;
    // Read in one call: a message can leave between counting it and reading it.
    const [refusal] = await page
      .locator('.ant-message-error:not([data-before-confirm])')
      .evaluateAll((errors) => errors.map((error) => error.textContent ?? ''));
    if (refusal !== undefined) {
      await screenshot(page, picture);
      throw new Error(`确认生成 was refused: ${refusal}`);
    }
    const state = await dialogState();
    if (!clickedAgain && state === 'open and idle' && Date.now() - clickedAt > 5_000) {
      console.warn(`确认生成 got no answer in 5 s at ${page.url()}: clicked again`);
      await screenshot(page, `${picture}-first-click`);
      clickedAgain = true;
      await ok.click();
    }
    if (Date.now() > deadline) {
      await screenshot(page, picture);
      throw new Error(
        `确认生成 led nowhere within ${limitMs / 1000} s: the page at ${page.url()}, the dialog ${state}`,
      );
    }
    await page.waitForTimeout(200);
  }
}
