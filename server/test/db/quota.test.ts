import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { createTestApp, createUser } from '../helpers/test-app';

let app: FastifyInstance;

beforeAll(async () => {
  ({ app } = await createTestApp());
});
afterAll(async () => {
  await app.close();
});

async function userWith(
  type: 'comics' | 'scroll' | 'searchVideo',
  counts: { gen?: number; reward?: number; merge?: number },
) {
  const { username } = await createUser(app);
  const user = await app.users.findByUsername(username);
  if (!user) throw new Error('user not created');
  await app.quotaService.grant(user.id, type, counts);
  return user.id;
}

describe('quota service', () => {
  it('lets exactly 10 of 50 concurrent spends through at a count of 10', async () => {
    const userId = await userWith('comics', { gen: 10 });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => app.quotaService.spend(userId, 'comics', 'gen')),
    );
    expect(results.filter((bucket) => bucket === 'gen')).toHaveLength(10);
    expect(results.filter((bucket) => bucket === null)).toHaveLength(40);
    expect(await app.quotaService.counts(userId, 'comics')).toEqual({
      gen: 0,
      reward: 0,
      merge: 0,
    });
  });

  it('spends the regular count first, then the reward count, across concurrent calls', async () => {
    const userId = await userWith('comics', { gen: 3, reward: 4 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => app.quotaService.spend(userId, 'comics', 'gen')),
    );
    expect(results.filter((b) => b === 'gen')).toHaveLength(3);
    expect(results.filter((b) => b === 'reward')).toHaveLength(4);
    expect(results.filter((b) => b === null)).toHaveLength(13);
  });

  it("never touches another user's or another type's counts", async () => {
    const spender = await userWith('comics', { gen: 1 });
    const bystander = await userWith('comics', { gen: 2, reward: 5 });
    await app.quotaService.grant(spender, 'scroll', { gen: 1, reward: 3 });
    expect(await app.quotaService.spend(spender, 'comics', 'gen')).toBe('gen');
    // Nothing left of comics for the spender: refused, and still nobody else pays.
    expect(await app.quotaService.spend(spender, 'comics', 'gen')).toBeNull();
    expect(await app.quotaService.counts(bystander, 'comics')).toEqual({
      gen: 2,
      reward: 5,
      merge: 0,
    });
    expect(await app.quotaService.counts(spender, 'scroll')).toEqual({
      gen: 1,
      reward: 3,
      merge: 0,
    });
  });

  it('spends merge counts on their own', async () => {
    const userId = await userWith('comics', { gen: 1, merge: 2 });
    expect(await app.quotaService.spend(userId, 'comics', 'merge')).toBe('merge');
    expect(await app.quotaService.spend(userId, 'comics', 'merge')).toBe('merge');
    expect(await app.quotaService.spend(userId, 'comics', 'merge')).toBeNull();
    expect(await app.quotaService.counts(userId, 'comics')).toEqual({
      gen: 1,
      reward: 0,
      merge: 0,
    });
    await expect(app.quotaService.spend(userId, 'scroll', 'merge')).rejects.toThrow(
      /no merge count/,
    );
  });

  it('refunds into the bucket that was spent', async () => {
    const userId = await userWith('scroll', { gen: 1, reward: 1 });
    const first = await app.quotaService.spend(userId, 'scroll', 'gen');
    const second = await app.quotaService.spend(userId, 'scroll', 'gen');
    expect([first, second]).toEqual(['gen', 'reward']);
    expect(await app.quotaService.spend(userId, 'scroll', 'gen')).toBeNull();
    if (second) await app.quotaService.refund(userId, 'scroll', second);
    expect(await app.quotaService.counts(userId, 'scroll')).toEqual({
      gen: 0,
      reward: 1,
      merge: 0,
    });
    expect(await app.quotaService.spend(userId, 'scroll', 'gen')).toBe('reward');
  });

  it('answers null for a user without any quota row', async () => {
    const { username } = await createUser(app);
    const user = await app.users.findByUsername(username);
    expect(await app.quotaService.spend(user?.id ?? 0, 'searchVideo', 'gen')).toBeNull();
  });
});
