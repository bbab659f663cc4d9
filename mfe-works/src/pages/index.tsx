import type { ReactElement } from 'react';
import { MyCopyPage } from './my-copy-page';

/** The page of every route claim in `routes.json`, by claim path. */
export const PAGES: ReadonlyMap<string, ReactElement> = new Map([['/work', <MyCopyPage />]]);
