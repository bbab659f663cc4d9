import type { ReactElement } from 'react';
import { UserCentrePage } from './user-centre-page';

/** The page of every route claim in `routes.json`, by claim path. */
export const PAGES: ReadonlyMap<string, ReactElement> = new Map([['/user', <UserCentrePage />]]);
