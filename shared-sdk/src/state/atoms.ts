import { atom } from 'jotai';
import type { Notice } from '../contracts/notice';
import type { UsageLimits, UserInfo } from '../contracts/user';
import { NoticeStatus } from '../enums';

/**
 * The state that spans the host and every remote, and nothing else: the signed-in user, their
 * usage limits and their notices. jotai and react are shared singletons, so every remote reads
 * the same store the host provides. Atoms hold what the server said; the calls live in `api/`.
 */

/** The signed-in user, or null before sign-in and after sign-out. */
export const currentUserAtom = atom<UserInfo | null>(null);

/** The user's remaining counts, or null until fetched. */
export const usageLimitsAtom = atom<UsageLimits | null>(null);

const noticesPrimitiveAtom = atom<Notice[]>([]);
const unreadCountPrimitiveAtom = atom(0);

/** The notice list. Writing it replaces the list as the server sent it. */
export const noticesAtom = atom(
  (get) => get(noticesPrimitiveAtom),
  (_get, set, notices: Notice[]) => set(noticesPrimitiveAtom, notices),
);

/** Unread notices, as the server counts them (`get_notice_count`). */
export const unreadNoticeCountAtom = atom(
  (get) => get(unreadCountPrimitiveAtom),
  (_get, set, count: number) => set(unreadCountPrimitiveAtom, Math.max(0, count)),
);

/** One notice was read: its status becomes 1 and, if it was unread, the count drops by one. */
export const markNoticeReadAtom = atom(null, (get, set, noticeId: number) => {
  const notices = get(noticesPrimitiveAtom);
  const target = notices.find((notice) => notice.id === noticeId);
  if (!target || target.status === NoticeStatus.read) return;
  set(
    noticesPrimitiveAtom,
    notices.map((notice) =>
      notice.id === noticeId ? { ...notice, status: NoticeStatus.read } : notice,
    ),
  );
  set(unreadCountPrimitiveAtom, Math.max(0, get(unreadCountPrimitiveAtom) - 1));
});

/** Mark all read (spec section 4): the count becomes 0 and every item's status 1. */
export const markAllNoticesReadAtom = atom(null, (get, set) => {
  set(
    noticesPrimitiveAtom,
    get(noticesPrimitiveAtom).map((notice) => ({ ...notice, status: NoticeStatus.read })),
  );
  set(unreadCountPrimitiveAtom, 0);
});

/** Signing out forgets everything that belonged to the user. */
export const clearSessionAtom = atom(null, (_get, set) => {
  set(currentUserAtom, null);
  set(usageLimitsAtom, null);
  set(noticesPrimitiveAtom, []);
  set(unreadCountPrimitiveAtom, 0);
});
