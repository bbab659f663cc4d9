import { lazyPart } from '../components/lazy-part';

// The host's pages that a first load of `/` (signed in) or `/home` (signed out) never shows,
// loaded when first visited (`PageSuspense` around the routes shows a spinner meanwhile). The
// error and permission pages carry antd's Result with its illustrations; the sign-in, ticket
// and registration pages its Form and Input; the phone layout its Drawer.
export const LoginPage = lazyPart(async () => (await import('../pages/login-page')).LoginPage);
export const TicketPage = lazyPart(async () => (await import('../pages/ticket-page')).TicketPage);
export const ClosePage = lazyPart(async () => (await import('../pages/close-page')).ClosePage);
export const RegisterPage = lazyPart(
  async () => (await import('../pages/register-page')).RegisterPage,
);
export const ErrorPage = lazyPart(async () => (await import('../pages/error-page')).ErrorPage);
export const NotFoundPage = lazyPart(
  async () => (await import('../pages/not-found-page')).NotFoundPage,
);
export const NoPermissionPage = lazyPart(
  async () => (await import('../pages/no-permission-page')).NoPermissionPage,
);
export const MobileLayout = lazyPart(
  async () => (await import('../layout/mobile-layout')).MobileLayout,
);
