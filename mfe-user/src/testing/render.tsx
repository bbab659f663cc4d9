import type { ReactElement } from 'react';
import type { UserInfo } from '@kol/shared-sdk';
import { renderWithHost as renderInHost } from '@kol/shared-sdk/testing';
import type { createStore } from 'jotai';
import { demoUser } from './fixtures';

interface Options {
  /** The user the host put in `currentUserAtom`; null for a signed-out store. */
  user?: UserInfo | null;
  route?: string;
  store?: ReturnType<typeof createStore>;
}

/** Renders as the host does (the SDK's helper), signed in as the demo user unless told otherwise. */
export function renderWithHost(ui: ReactElement, options: Options = {}) {
  return renderInHost(ui, {
    ...options,
    user: options.user === undefined ? demoUser() : options.user,
  });
}
