import type { ReactElement } from 'react';
import { Route, Routes } from '@kol/shared-sdk/router';
import type { UserInfo } from '@kol/shared-sdk';
import { renderWithHost as renderInHost } from '@kol/shared-sdk/testing';
import type { createStore } from 'jotai';
import { demoUser } from './fixtures';

interface Options {
  /** The user the host put in `currentUserAtom`; null for a signed-out store. */
  user?: UserInfo | null;
  route?: string;
  store?: ReturnType<typeof createStore>;
  /** The claim's path pattern, so the page reads its `:params` as under the host's route. */
  path?: string;
}

/** Renders as the host does (the SDK's helper), signed in as the demo user unless told otherwise. */
export function renderWithHost(ui: ReactElement, options: Options = {}) {
  const { path, ...rest } = options;
  const routed = path ? (
    <Routes>
      <Route path={path} element={ui} />
      <Route path={`/m${path}`} element={ui} />
      <Route path="*" element={null} />
    </Routes>
  ) : (
    ui
  );
  return renderInHost(routed, {
    ...rest,
    user: options.user === undefined ? demoUser() : options.user,
  });
}
