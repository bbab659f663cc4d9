import { Type, type Static } from 'typebox';
import { Empty, endpoint } from './common';

/** A path a remote's build claims, so the host can route to it without knowing it at build time. */
export const RouteClaim = Type.Object({
  /** react-router path pattern, e.g. `/video/promptWord/:id`. */
  path: Type.String({ minLength: 1 }),
  layout: Type.Union([Type.Literal('inside'), Type.Literal('outside')]),
  /** Has a phone variant under `/m`. */
  mobile: Type.Optional(Type.Boolean()),
  /** Template id the user needs to open the page. */
  templateId: Type.Optional(Type.Integer({ minimum: 0, maximum: 6 })),
  /** The page's Chinese name: the host makes it the document title and the page's one h1. */
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
});
export type RouteClaim = Static<typeof RouteClaim>;

export const RemoteVersionRef = Type.Object({
  version: Type.String(),
  manifestUrl: Type.String(),
});

export const RemoteEntry = Type.Object({
  name: Type.String(),
  version: Type.String(),
  manifestUrl: Type.String(),
  routes: Type.Array(RouteClaim),
  lastKnownGood: Type.Union([RemoteVersionRef, Type.Null()]),
});
export type RemoteEntry = Static<typeof RemoteEntry>;

export const RemoteRegistry = Type.Object({ remotes: Type.Array(RemoteEntry) });
export type RemoteRegistry = Static<typeof RemoteRegistry>;

export const RemoteLoadFailure = Type.Object({
  remote: Type.String({ title: '远程模块', minLength: 1, maxLength: 64 }),
  version: Type.String({ title: '版本', maxLength: 128 }),
  phase: Type.String({ title: '阶段', maxLength: 64 }),
  message: Type.String({ title: '错误信息', maxLength: 2000 }),
});
export type RemoteLoadFailure = Static<typeof RemoteLoadFailure>;

/** What the shell needs to know about this installation, configured on the server. */
export const PlatformConfig = Type.Object({
  /** Hostnames (the official and the test one) that sign on through single sign-on. */
  ssoHosts: Type.Array(Type.String()),
  /** Contact details shown by the header's contact-us item. */
  contact: Type.Object({
    title: Type.String(),
    lines: Type.Array(Type.Object({ label: Type.String(), value: Type.String() })),
  }),
  /**
   * Whether a browser may load a remote from a developer's dev server instead of the registry's
   * release (the `KOL_REMOTE_OVERRIDES` local-storage value; server setting REMOTE_OVERRIDES).
   */
  remoteOverrides: Type.Boolean(),
});
export type PlatformConfig = Static<typeof PlatformConfig>;

export const platformEndpoints = {
  config: endpoint({
    method: 'GET',
    path: '/api/platform/config',
    access: 'public',
    summary: '平台配置（单点登录域名、联系方式、是否允许本地覆盖远程模块、是否配置了文本模型）',
    response: PlatformConfig,
  }),
  remotes: endpoint({
    method: 'GET',
    path: '/api/platform/remotes',
    access: 'public',
    summary: '远程模块注册表',
    response: RemoteRegistry,
  }),
  reportRemoteFailure: endpoint({
    method: 'POST',
    path: '/api/platform/remote_failures',
    access: 'public',
    summary: '上报远程模块加载失败',
    body: RemoteLoadFailure,
    response: Empty,
  }),
};
