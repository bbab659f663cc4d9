import { createRemoteApp } from '@kol/shared-sdk/ui';
import { PAGES } from './pages';

/**
 * The remote's one exposed module (`mfe_works/App`): the page of the route claim the host matched.
 * It renders inside the host's router and jotai Provider and creates neither; antd is this
 * build's own, so `createRemoteApp` gives the pages the one theme in a ConfigProvider of theirs.
 */
export default createRemoteApp(PAGES);
