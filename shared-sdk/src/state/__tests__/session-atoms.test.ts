import { describe, expect, it } from '@jest/globals';
import { createStore } from 'jotai';
import type { Notice } from '../../contracts/notice';
import {
  clearSessionAtom,
  currentUserAtom,
  markAllNoticesReadAtom,
  markNoticeReadAtom,
  noticesAtom,
  unreadNoticeCountAtom,
  usageLimitsAtom,
} from '..';

const notice = (id: number, status: 0 | 1): Notice => ({
  id,
  categoryId: 1,
  title: `通知${id}`,
  content: `内容${id}`,
  status,
  updateTime: '2026-11-21 10:00:00',
});

function storeWithNotices() {
  const store = createStore();
  store.set(noticesAtom, [notice(1, 0), notice(2, 0), notice(3, 1)]);
  store.set(unreadNoticeCountAtom, 2);
  return store;
}

describe('session atoms', () => {
  it('mark all read sets the count to 0 and every item status to 1', () => {
    const store = storeWithNotices();
    store.set(markAllNoticesReadAtom);
    expect(store.get(unreadNoticeCountAtom)).toBe(0);
    expect(store.get(noticesAtom).map((n) => n.status)).toEqual([1, 1, 1]);
  });

  it('reading one unread notice sets its status and lowers the count once', () => {
    const store = storeWithNotices();
    store.set(markNoticeReadAtom, 1);
    expect(store.get(noticesAtom).map((n) => n.status)).toEqual([1, 0, 1]);
    expect(store.get(unreadNoticeCountAtom)).toBe(1);
    store.set(markNoticeReadAtom, 1);
    store.set(markNoticeReadAtom, 3);
    expect(store.get(unreadNoticeCountAtom)).toBe(1);
  });

  it('never lets the count go below zero', () => {
    const store = createStore();
    store.set(unreadNoticeCountAtom, -4);
    expect(store.get(unreadNoticeCountAtom)).toBe(0);
  });

  it('clearing the session forgets the user, limits and notices', () => {
    const store = storeWithNotices();
    store.set(currentUserAtom, {
      userId: 1,
      username: 'demo',
      nickname: '演示',
      userData: '',
      phone: '',
      avatar: '',
      draftPath: '',
      status: -1,
      homePageUrl: '',
      functionalLevel: 1,
      registerSource: '',
      invitationCode: '',
      questionnaire: -1,
      feedback: 1,
      templateIds: [0, 1],
    });
    store.set(clearSessionAtom);
    expect(store.get(currentUserAtom)).toBeNull();
    expect(store.get(usageLimitsAtom)).toBeNull();
    expect(store.get(noticesAtom)).toEqual([]);
    expect(store.get(unreadNoticeCountAtom)).toBe(0);
  });
});
