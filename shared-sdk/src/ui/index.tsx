import { App, Button, ConfigProvider, Result, theme, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { useCallback, type ReactElement } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { useNavigate } from '@kol/shared-sdk/router';
// The state entry by its package name: it is a shared singleton, so this is the host's client.
import { queryClient } from '@kol/shared-sdk/state';
import { isStaleEdit, saveOnRevision, STALE_EDIT_MESSAGE } from '../revisions';
import kolTheme from './kol-theme.json';

export { useSingleFlight } from './single-flight';
export { configuredServices, forgetServices, useServices, useTextModel } from './services';
export { VideoTypeChooser } from './video-type-chooser';
export {
  ExportProject,
  JianyingDraftDialog,
  MLT_EXPORT_HINT,
  type ExportProjectProps,
  type JianyingDraftDialogProps,
} from './export-project';
export { useMediaQuery } from './use-media-query';

/**
 * What the host and every remote render alike (antd and react-router are optional peers of
 * this entry only). Remotes render inside the host's router and jotai store and create none;
 * antd is each app's own (tree-shaken, not shared: webpack.preset.cjs), so each remote gives its
 * pages the one theme, locale and App context (messages, modals) itself, in `createRemoteApp`.
 */

/**
 * Dark theme, pink primary (spec section 1): the host's ConfigProvider and tests use this one.
 * Its values live in `kol-theme.json`, which the builds also read to write the antd styles of a
 * first load ahead of time (scripts/antd-styles.cjs). Info and progress take the primary and
 * links a lighter pink (antd's default blue is off the palette; the primary itself reads below
 * 4.5:1 as small text on the dark ground), placeholders half white (antd's quarter white reads
 * about 2:1 on the dark ground; half is 5.3:1), descriptions and help texts 55 % white (antd's
 * 45 % reads 4.4:1 in a dialog or popup, whose ground is the lighter grey), black text on a red
 * button (white on antd's dark red reads 4.2:1, as on the 删除 of a confirmation; black reads 5:1,
 * as in Material's dark theme), and the header and side menu the dark greys of the pages (antd's
 * dark layout is navy): the interface audit checks every route and dialog against it
 * (e2e/support/audit.ts).
 */
export const KOL_THEME: ThemeConfig = {
  algorithm: kolTheme.dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
  token: kolTheme.token,
  components: kolTheme.components,
};

export function RemotePageNotFound() {
  const navigate = useNavigate();
  return (
    <Result
      // antd's 403 and 404 pictures are drawn in its default blue, off the theme's palette.
      status="warning"
      title="页面不存在"
      subTitle="你访问的页面不存在或已被移除。"
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          返回首页
        </Button>
      }
    />
  );
}

/** A remote's exposed `./App`: the page of the route claim (from `routes.json`) the host matched. */
export interface RemoteAppProps {
  routePath: string;
}

/**
 * Makes a remote's `./App` from its pages, keyed by claim path (a Map, so `constructor` is no
 * page), in the remote's own antd ConfigProvider with the one theme and locale. `App` with no
 * element of its own gives `App.useApp()` its message, modal and notification holders. The
 * query client is the one shared client: the host provides it too, this makes a remote whole
 * when it runs alone.
 */
/**
 * Where a remote page's tooltips, popconfirms, popovers and menus are put: inside the page's
 * `main`, next to what opened them, not at the end of the body, where they are content outside
 * any landmark (the accessibility audit's `region` rule) and far from their control for a screen
 * reader. Dialogs (asked with no trigger) stay on the body. The lists of selects and pickers go
 * to `choiceLists()`, a named region of their own directly on the body: inside a box that clips
 * (a table, a card's scroll area) a list would be cut off, and on the bare body it would be
 * content outside any landmark.
 */
export function inPageLandmark(trigger?: HTMLElement): HTMLElement {
  if (!trigger) return document.body;
  if (trigger.closest('.ant-select, .ant-picker, .ant-cascader')) return choiceLists();
  return trigger.closest<HTMLElement>('main') ?? document.body;
}

/**
 * The body's region for open select and picker lists (made once). It has no position or size of
 * its own, so a list inside it is placed exactly as on the body.
 */
export function choiceLists(): HTMLElement {
  const existing = document.querySelector<HTMLElement>('body > [data-kol-choice-lists]');
  if (existing) return existing;
  const region = document.createElement('div');
  region.setAttribute('data-kol-choice-lists', '');
  region.setAttribute('role', 'region');
  region.setAttribute('aria-label', '选项列表');
  document.body.appendChild(region);
  return region;
}

export function createRemoteApp(pages: ReadonlyMap<string, ReactElement>) {
  return function RemoteApp({ routePath }: RemoteAppProps) {
    return (
      <QueryClientProvider client={queryClient}>
        <ConfigProvider theme={KOL_THEME} locale={zhCN} getPopupContainer={inPageLandmark}>
          <App component={false}>{pages.get(routePath) ?? <RemotePageNotFound />}</App>
        </ConfigProvider>
      </QueryClientProvider>
    );
  };
}

/** What `useRevisionedSave` saves: the parts of a record an edit changes, on a revision. */
export type RevisionedEdit<T, R> = Parameters<typeof saveOnRevision<T, R>>[0];

/**
 * A page's save of an edited record (`saveOnRevision`): when another tab or a writer of the
 * server's changed the same part meanwhile, the person is asked, with nothing they typed lost:
 * 「保留我的修改」 saves their edit over the newest record (only where both changed a part),
 * 「载入最新内容」 answers null so the page reloads the record. The page keeps its own text
 * until it reloads.
 */
export function useRevisionedSave() {
  const { modal } = App.useApp();
  return useCallback(
    async <T, R>(edit: RevisionedEdit<T, R>): Promise<R | null> => {
      try {
        return await saveOnRevision(edit);
      } catch (error) {
        if (!isStaleEdit<T>(error)) throw error;
        const keep = await new Promise<boolean>((resolve) => {
          modal.confirm({
            title: '内容已在其他页面修改',
            content: `${STALE_EDIT_MESSAGE}。你的修改仍保留在本页：可以保留你的修改（覆盖另一处对同一内容的改动），或载入最新内容（放弃你在本页的修改）。`,
            okText: '保留我的修改',
            cancelText: '载入最新内容',
            closable: false,
            mask: { closable: false },
            onOk: () => resolve(true),
            onCancel: () => resolve(false),
          });
        });
        return keep ? edit.save(error.merged, error.revision) : null;
      }
    },
    [modal],
  );
}
