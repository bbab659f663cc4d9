import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  api,
  createUser,
  kol,
  launchBrowser,
  newPage,
  platformUrl,
  userPageTitle,
} from '../support/platform';
import {
  kolChange,
  registryVersion,
  removeVariantBuilds,
  USER_BUILD,
  USER_TITLE,
  variantBuild,
} from '../support/releases';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  removeVariantBuilds();
});

interface Person {
  context: BrowserContext;
  page: Page;
  /** Requests this person's browser made for files of a release of the user centre. */
  userCentreFiles: string[];
}

/**
 * A new user signed in through the API in a browser of their own: nothing is loaded yet, so the
 * registry can be asked which version of the user centre they get before their browser has
 * tried (and maybe reported) any of it.
 */
async function newPerson(): Promise<Person> {
  const { username, password } = await createUser({ templateIds: '0,1,2,3,4,5,6' });
  const { context, page } = await newPage(browser);
  await api(page, '/api/user/login', { username, password });
  const userCentreFiles: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(`${platformUrl()}/remotes/mfe_user/`)) {
      userCentreFiles.push(request.url());
    }
  });
  return { context, page, userCentreFiles };
}

/**
 * People for whom the registry answers `version` of mfe_user, chosen among new users (the
 * canary picks people by a hash of their id: which ones is not up to the test).
 */
async function peopleGetting(version: string, count: number): Promise<Person[]> {
  const chosen: Person[] = [];
  for (let tries = 0; chosen.length < count; tries += 1) {
    if (tries >= 30) throw new Error(`30 users tried, ${chosen.length} of them get ${version}`);
    const person = await newPerson();
    if ((await registryVersion('mfe_user', person.page)) === version) chosen.push(person);
    else await person.context.close();
  }
  return chosen;
}

describe('canary releases of a remote', () => {
  it('runs a 50 % canary for the users it picks, the same at every load, then promotes it', async () => {
    const stable = await registryVersion('mfe_user');
    const canaryTitle = '个人中心（灰度版）';
    const change = await kolChange(
      'release',
      'mfe_user',
      '--dir',
      variantBuild(USER_BUILD, USER_TITLE, canaryTitle),
      '--canary',
      '50',
      '--note',
      'e2e canary',
    );
    expect(change.canary?.percent).toBe(50);
    expect(change.from).toBe(stable);
    const canary = change.to;

    // Two users, chosen so: one the canary picked, one it did not.
    const [picked] = (await peopleGetting(canary, 1)) as [Person];
    const [other] = (await peopleGetting(stable, 1)) as [Person];
    expect(await userPageTitle(picked.page)).toBe(canaryTitle);
    expect(await userPageTitle(other.page)).toBe(USER_TITLE);
    // One person sees one version across reloads.
    expect(await userPageTitle(picked.page)).toBe(canaryTitle);
    expect(await userPageTitle(other.page)).toBe(USER_TITLE);
    // Signed-out browsers keep the stable version.
    expect(await registryVersion('mfe_user')).toBe(stable);
    expect(await kol('remote', 'list', 'mfe_user')).toContain(
      `canary: mfe_user ${canary} for 50% of signed-in users (stable ${stable})`,
    );

    // Promoted: everyone's, the canary over.
    const promoted = await kolChange('promote', 'mfe_user', canary);
    expect(promoted.endedCanary).toBe(canary);
    expect(promoted.canary).toBeNull();
    expect(await userPageTitle(other.page)).toBe(canaryTitle);
    expect(await registryVersion('mfe_user')).toBe(canary);

    // Leave the platform as the other tests expect it.
    await kol('remote', 'promote', 'mfe_user', stable);
    for (const person of [picked, other]) await person.context.close();
  });

  it('rolls a broken canary back on its own once three users fail to load it; the fourth gets the good version', async () => {
    const stable = await registryVersion('mfe_user');
    const change = await kolChange(
      'release',
      'mfe_user',
      '--dir',
      // Its entry loads; the chunk of its page fails.
      variantBuild(USER_BUILD, USER_TITLE, '个人中心（坏灰度）', { breakIt: true }),
      '--canary',
      '50',
      '--note',
      'e2e broken canary',
    );
    const broken = change.to;
    // Four people the canary picked, chosen before any of them loads a page.
    const people = await peopleGetting(broken, 4);
    const [first, second, third, fourth] = people as [Person, Person, Person, Person];

    // Three of them open the user centre: each browser fails on the canary, falls back to the
    // stable version (the page works) and reports the failure.
    for (const person of [first, second, third]) {
      expect(await userPageTitle(person.page)).toBe(USER_TITLE);
      expect(person.userCentreFiles.some((url) => url.includes(`/${broken}/`))).toBe(true);
    }

    // The third distinct user's report moved the pointer back: the canary is over.
    let failures = '';
    for (let tries = 0; tries < 40 && !failures.includes('automatic rollbacks'); tries += 1) {
      failures = await kol('remote', 'failures', 'mfe_user');
      if (!failures.includes('automatic rollbacks')) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    expect(failures).toContain(
      `mfe_user ${broken} → ${stable} (canary ended), 3 signed-in user(s)`,
    );
    expect(await kol('remote', 'list', 'mfe_user')).toMatch(
      new RegExp(`${broken.replaceAll('.', '\\.')}\\s+auto-rolled back`),
    );

    // The fourth, whom the canary had picked, gets the good version and never touches the
    // broken one.
    expect(await registryVersion('mfe_user', fourth.page)).toBe(stable);
    expect(await userPageTitle(fourth.page)).toBe(USER_TITLE);
    expect(fourth.userCentreFiles.some((url) => url.includes(`/${broken}/`))).toBe(false);
    expect(fourth.userCentreFiles.some((url) => url.includes(`/${stable}/`))).toBe(true);
    for (const person of people) await person.context.close();
  });
});
