import type { ReactElement } from 'react';
import { CreatePage } from './create-page';
import { GeneratePage } from './generate-page';

/** The page of every route claim in `routes.json`, by claim path. */
export const PAGES: ReadonlyMap<string, ReactElement> = new Map([
  ['/generate', <GeneratePage />],
  ['/create', <CreatePage />],
]);
