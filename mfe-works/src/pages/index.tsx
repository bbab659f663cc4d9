import type { ReactElement } from 'react';
import { WORK_LISTS } from '../lib/work-lists';
import { CutPage } from './cut-page';
import { MyCopyPage } from './my-copy-page';
import { RolesPage } from './roles-page';
import { VideoCutPage } from './video-cut-page';
import { WorksListPage } from './works-list-page';

/** The page of every route claim in `routes.json`, by claim path. */
export const PAGES: ReadonlyMap<string, ReactElement> = new Map([
  ['/work', <MyCopyPage />],
  ...WORK_LISTS.map((list): [string, ReactElement] => [list.path, <WorksListPage list={list} />]),
  ['/work/character', <RolesPage />],
  ['/work/cut/:id', <CutPage />],
  ['/video/cut', <VideoCutPage />],
]);
