import { useQuery } from '@tanstack/react-query';
import { useSetAtom } from 'jotai';
import { getNoticeCategories, getNoticeCount, getNoticeList } from '@kol/shared-sdk';
import { noticesAtom, unreadNoticeCountAtom } from '@kol/shared-sdk/state';

/** The query keys of the notices: the list, its categories and the unread count. */
export const NOTICES_KEY = ['notices'] as const;
export const NOTICE_CATEGORIES_KEY = ['notice-categories'] as const;
export const NOTICE_COUNT_KEY = ['notice-count'] as const;

/**
 * The notices (`notice/list`), asked again each time a part of the page that shows them appears
 * (the home page, the bell opened), and put into the shared `noticesAtom` as they come: reading
 * one or all (`markNoticeReadAtom`, `markAllNoticesReadAtom`) works on that atom, so the home
 * page and the bell show the same state. `enabled` false: not asked.
 */
export function useNotices(enabled = true) {
  const setNotices = useSetAtom(noticesAtom);
  return useQuery({
    queryKey: NOTICES_KEY,
    queryFn: async ({ signal }) => {
      const { items } = await getNoticeList(undefined, { signal });
      setNotices(items);
      return items;
    },
    enabled,
    staleTime: 0,
  });
}

/** The notice categories (`get_notice_category`), for grouping the bell's list. */
export function useNoticeCategories(enabled = true) {
  return useQuery({
    queryKey: NOTICE_CATEGORIES_KEY,
    queryFn: ({ signal }) => getNoticeCategories(undefined, { signal }),
    enabled,
  });
}

/**
 * The unread count (`get_notice_count`), asked when the bell appears, into the shared
 * `unreadNoticeCountAtom` (which reading a notice lowers). A failure leaves the count as it was.
 */
export function useUnreadNoticeCount() {
  const setCount = useSetAtom(unreadNoticeCountAtom);
  useQuery({
    queryKey: NOTICE_COUNT_KEY,
    queryFn: async ({ signal }) => {
      const { count } = await getNoticeCount(undefined, { signal });
      setCount(count);
      return count;
    },
    staleTime: 0,
  });
}
