import { Flex, Spin } from 'antd';
import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';

/**
 * A part of the host loaded when it is first shown rather than with the first page: the pages
 * a signed-in `/` never shows (sign-in, ticket, registration, the phone layout) and the dialogs
 * opened on a click. Their antd components (Form, Input, Radio, Drawer, Descriptions…) then stay
 * out of the first load. `load` names the module's export, so the modules keep named exports.
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  return lazy(async () => ({ default: await load() }));
}

/** What a page shows while its code arrives (a few kilobytes on loopback: rarely seen). */
export function PageLoading() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: '60vh' }}>
      <Spin />
    </Flex>
  );
}

export function PageSuspense({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoading />}>{children}</Suspense>;
}

/**
 * True from the first time `open` is true on: a lazy dialog is mounted when first opened and
 * kept, so it closes with its animation and opens at once the next time.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
