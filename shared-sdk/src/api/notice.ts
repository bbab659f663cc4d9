import { NOTICE_PAGE_SIZE } from '../constants';
import type { NoticeListQuery, noticeEndpoints } from '../contracts/notice';
import type { CallOptions } from '../http/client';
import { ALL_NOTICES, ALL_NOTICE_CATEGORIES } from '../enums';
import { defineCall } from './define-call';

type E = typeof noticeEndpoints;

const list = defineCall<E['list']>('GET', '/api/notice/list');
const click = defineCall<E['click']>('GET', '/api/notice/click');

/** The spec's list call: first page of 1000, every category, unless told otherwise. */
export function getNoticeList(query: Partial<NoticeListQuery> = {}, options?: CallOptions) {
  return list(
    { pageIndex: 1, pageSize: NOTICE_PAGE_SIZE, id: ALL_NOTICE_CATEGORIES, ...query },
    options,
  );
}

export function markNoticeRead(noticeId: number, options?: CallOptions) {
  return click({ noticeId }, options);
}

export function markAllNoticesRead(options?: CallOptions) {
  return click({ noticeId: ALL_NOTICES }, options);
}

export const getNoticeCategories = defineCall<E['getNoticeCategory']>(
  'GET',
  '/api/notice/get_notice_category',
);
export const getNoticeCount = defineCall<E['getNoticeCount']>(
  'GET',
  '/api/notice/get_notice_count',
);
