import { createRemoteApp } from '@kol/shared-sdk/ui';
import { PAGES } from './pages';

/**
 * The remote's one exposed module (`mfe_video/App`): the page of the route claim the host matched.
 * It renders inside the host's router, jotai Provider and antd ConfigProvider, and creates none
 * of its own.
 */
export default createRemoteApp(PAGES);
