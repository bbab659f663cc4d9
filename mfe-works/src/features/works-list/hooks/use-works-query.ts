import { useCallback } from 'react';
import { useSearchParams } from '@kol/shared-sdk/router';
import { CreationFlag, type ProjectType } from '@kol/shared-sdk';
import type { WorkList } from '../../../lib/work-lists';

/** What one works list shows, as kept in the address so a reload or a shared link keeps it. */
export interface WorksQuery {
  flag: CreationFlag;
  pageIndex: number;
  keyword: string;
  /** The one project type listed: a page is one get_works call, and get_works takes one type. */
  type: ProjectType;
  /** Only the episodes of this series (both tabs: an episode is a draft until it is posted). */
  seriesId: number | null;
}

/** The query keys in the address (`?tab=works&page=2&keyword=…&type=5`). */
const TAB = 'tab';
const PAGE = 'page';
const KEYWORD = 'keyword';
const TYPE = 'type';
const SERIES = 'seriesId';
const CREATION_TAB = 'works';

function readQuery(params: URLSearchParams, list: WorkList): WorksQuery {
  const page = Number(params.get(PAGE));
  const type = Number(params.get(TYPE));
  const seriesId = Number(params.get(SERIES));
  return {
    flag: params.get(TAB) === CREATION_TAB ? CreationFlag.creation : CreationFlag.draft,
    pageIndex: Number.isInteger(page) && page > 1 ? page : 1,
    keyword: params.get(KEYWORD)?.trim() ?? '',
    // A type the list does not show (a hand-edited address) falls back to its first, domestic one.
    type: list.types.find((entry) => entry === type) ?? (list.types[0] as ProjectType),
    seriesId: Number.isInteger(seriesId) && seriesId > 0 ? seriesId : null,
  };
}

/**
 * The tab, page, keyword and type switch of a works list, read from and written to the address.
 * Changing what is listed (tab, keyword, type) goes back to page 1; defaults are left out of the
 * address so the plain path stays the plain list.
 */
export function useWorksQuery(list: WorkList) {
  const [params, setParams] = useSearchParams();
  const query = readQuery(params, list);

  const update = useCallback(
    (patch: Partial<WorksQuery>) => {
      setParams((previous) => {
        const next = { ...readQuery(previous, list), pageIndex: 1, ...patch };
        const written = new URLSearchParams(previous);
        const put = (key: string, value: string | null) => {
          if (value === null) written.delete(key);
          else written.set(key, value);
        };
        put(TAB, next.flag === CreationFlag.creation ? CREATION_TAB : null);
        put(PAGE, next.pageIndex > 1 ? String(next.pageIndex) : null);
        put(KEYWORD, next.keyword || null);
        put(TYPE, list.types.length > 1 && next.type !== list.types[0] ? String(next.type) : null);
        put(SERIES, next.seriesId === null ? null : String(next.seriesId));
        return written;
      });
    },
    [list, setParams],
  );

  return {
    query,
    setFlag: useCallback((flag: CreationFlag) => update({ flag }), [update]),
    setPage: useCallback((pageIndex: number) => update({ pageIndex }), [update]),
    setKeyword: useCallback((keyword: string) => update({ keyword: keyword.trim() }), [update]),
    setType: useCallback((type: ProjectType) => update({ type }), [update]),
    setSeries: useCallback((seriesId: number | null) => update({ seriesId }), [update]),
  };
}
