import { hasTemplate } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Route, Routes, useLocation } from '@kol/shared-sdk/router';
import { RemoteOutlet } from '../federation/remote-outlet';
import type { ClaimedRoute } from '../federation/remote-registry';
import { claimedRoutesAtom } from '../federation/remote-state';
import { PageSuspense } from '../components/lazy-part';
import { AppLayout } from '../layout/app-layout';
import { PageTitle } from '../layout/page-title';
import { HomePage } from '../pages/home-page';
import { LandingPage } from '../pages/landing-page';
import { desktopPathOf, workTemplateOf } from '../session/route-rules';
import {
  ClosePage,
  ErrorPage,
  LoginPage,
  MobileLayout,
  NoPermissionPage,
  NotFoundPage,
  RegisterPage,
  TicketPage,
} from './lazy-pages';
import { SPEC_REMOTE_ROUTES_INSIDE, SPEC_REMOTE_ROUTES_OUTSIDE } from './spec-routes';

/** A work page without its template id shows the no-permission message instead (spec 4, 5). */
function TemplateGate({
  templateId,
  children,
}: {
  templateId: number | null | undefined;
  children: ReactNode;
}) {
  const user = useAtomValue(currentUserAtom);
  const location = useLocation();
  const required = templateId ?? workTemplateOf(desktopPathOf(location.pathname)) ?? null;
  return hasTemplate(user, required) ? <>{children}</> : <NoPermissionPage />;
}

function RemoteUnavailable() {
  return <ErrorPage title="模块暂不可用" detail="该功能模块尚未发布或暂时无法访问，请稍后重试。" />;
}

function remoteFailed(remote: string) {
  return (retry: () => void) => (
    <ErrorPage
      title="页面加载失败"
      detail={`模块 ${remote} 暂时无法加载，请稍后重试。`}
      onRetry={retry}
    />
  );
}

function remoteRoute(claim: ClaimedRoute, path = claim.path) {
  const page = (
    <>
      <PageTitle title={claim.title} />
      {/* One outlet per claim: its state never carries one route's page into another. */}
      <RemoteOutlet
        key={claim.path}
        remote={claim.remote}
        routePath={claim.path}
        failed={remoteFailed(claim.remote)}
      />
    </>
  );
  return (
    <Route
      key={`${claim.remote}:${path}`}
      path={path}
      element={
        <TemplateGate templateId={claim.templateId}>
          {/* Inside a layout the page is in its `main` (antd's Layout.Content); outside, here. */}
          {claim.layout === 'outside' && !path.startsWith('/m/') ? <main>{page}</main> : page}
        </TemplateGate>
      }
    />
  );
}

function unavailableRoutes(paths: string[], claimed: ClaimedRoute[], prefix = '') {
  return paths
    .filter((path) => !claimed.some((claim) => claim.path === path))
    .map((path) => (
      <Route
        key={`unavailable:${prefix}${path}`}
        path={prefix + path}
        element={
          <TemplateGate templateId={undefined}>
            <RemoteUnavailable />
          </TemplateGate>
        }
      />
    ));
}

/**
 * The router: the host's own pages, plus a route for every path a remote's build claims
 * (inside or outside the layout, and under /m when the claim has a phone variant).
 */
export function AppRoutes() {
  const claims = useAtomValue(claimedRoutesAtom);
  const inside = claims.filter((claim) => claim.layout === 'inside');
  const outside = claims.filter((claim) => claim.layout === 'outside');
  const mobile = claims.filter((claim) => claim.mobile);
  return (
    <PageSuspense>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/login/ticket" element={<TicketPage />} />
        <Route path="/home" element={<LandingPage />} />
        <Route path="/close" element={<ClosePage />} />
        <Route path="/register" element={<RegisterPage />} />
        {outside.map((claim) => remoteRoute(claim))}
        {unavailableRoutes(SPEC_REMOTE_ROUTES_OUTSIDE, outside)}
        <Route path="/m" element={<MobileLayout />}>
          <Route index element={<HomePage />} />
          {mobile.map((claim) => remoteRoute(claim, `/m${claim.path}`))}
          <Route path="*" element={<RemoteUnavailable />} />
        </Route>
        <Route element={<AppLayout />}>
          <Route path="/" element={<HomePage />} />
          {inside.map((claim) => remoteRoute(claim))}
          {unavailableRoutes(SPEC_REMOTE_ROUTES_INSIDE, inside)}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </PageSuspense>
  );
}
