import { Type, type Static } from 'typebox';
import { QUOTA_TYPES } from '../quota';
import { Text, endpoint } from './common';
import { Notice, NoticeCategory } from './notice';
import { RemoteLoadFailure } from './platform';
import { HomePageUrlField, UserInfo } from './user';

/**
 * The admin API under /api/admin, used by the ops CLI (`pnpm kol …`). Every call needs
 * `Authorization: Bearer <admin token>`; an optional `x-kol-actor` header names the person
 * for the audit log. Every change writes an audit record.
 */

/** A user as ops see it: the user info plus account state. */
export const AdminUser = Type.Object({
  ...UserInfo.properties,
  disabled: Type.Boolean(),
  createdAt: Type.String(),
});
export type AdminUser = Static<typeof AdminUser>;

const Username = Type.String({ title: '用户名', minLength: 1, maxLength: 64, pattern: '^\\S+$' });
const Password = Type.String({ title: '密码', minLength: 8, maxLength: 128 });
const TemplateIds = Type.Array(Type.Integer({ minimum: 0, maximum: 6, title: '模板编号' }), {
  title: '模板编号',
  maxItems: 7,
});
const FunctionalLevel = Type.Integer({ title: '功能等级', minimum: 0, maximum: 9 });
const UserStatusField = Type.Integer({ title: '状态', minimum: -1, maximum: 9 });

export const CreateUserBody = Type.Object({
  username: Username,
  password: Password,
  nickname: Type.Optional(Text('昵称', { maxLength: 32 })),
  templateIds: Type.Optional(TemplateIds),
  functionalLevel: Type.Optional(FunctionalLevel),
  status: Type.Optional(UserStatusField),
});
export type CreateUserBody = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Object({
  username: Username,
  password: Type.Optional(Password),
  nickname: Type.Optional(Text('昵称', { maxLength: 32 })),
  templateIds: Type.Optional(TemplateIds),
  functionalLevel: Type.Optional(FunctionalLevel),
  status: Type.Optional(UserStatusField),
  homePageUrl: Type.Optional(HomePageUrlField),
  /** false re-enables a disabled account. */
  disabled: Type.Optional(Type.Boolean({ title: '停用' })),
});
export type UpdateUserBody = Static<typeof UpdateUserBody>;

// Type.Enum rather than a Union of mapped literals: a Union over an array (not a tuple)
// has the static type `never`.
export const QuotaTypeField = Type.Enum(QUOTA_TYPES, { title: '额度类型' });

const Delta = (title: string) =>
  Type.Optional(Type.Integer({ title, minimum: -1_000_000, maximum: 1_000_000 }));

/** Adds counts (negative takes away, never below 0). */
export const GrantQuotaBody = Type.Object({
  username: Username,
  type: QuotaTypeField,
  gen: Delta('生成次数'),
  reward: Delta('奖励次数'),
  merge: Delta('合成次数'),
});
export type GrantQuotaBody = Static<typeof GrantQuotaBody>;

export const QuotaCounts = Type.Object({
  username: Type.String(),
  type: Type.String(),
  gen: Type.Integer(),
  reward: Type.Integer(),
  merge: Type.Integer(),
});
export type QuotaCounts = Static<typeof QuotaCounts>;

export const PublishNoticeBody = Type.Object({
  title: Text('标题', { minLength: 1, maxLength: 100 }),
  content: Text('内容', { minLength: 1, maxLength: 10_000 }),
  /** Category name; created on first use. Defaults to 系统公告. */
  category: Type.Optional(Text('分类', { minLength: 1, maxLength: 32 })),
});
export type PublishNoticeBody = Static<typeof PublishNoticeBody>;

export const PublishedNotice = Type.Object({
  id: Notice.properties.id,
  categoryId: Notice.properties.categoryId,
  categoryName: NoticeCategory.properties.categoryName,
  title: Notice.properties.title,
  content: Notice.properties.content,
  updateTime: Notice.properties.updateTime,
});
export type PublishedNotice = Static<typeof PublishedNotice>;

export const AuditEntry = Type.Object({
  id: Type.Integer(),
  /** 'admin token' plus the x-kol-actor name when given. */
  actor: Type.String(),
  action: Type.String(),
  target: Type.String(),
  /** Before and after, or what was done. */
  details: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Type.String(),
});
export type AuditEntry = Static<typeof AuditEntry>;

/** A remote's federation name, as its manifest declares it (`mfe_user`). */
export const RemoteNameField = Type.String({
  title: '远程模块',
  minLength: 1,
  maxLength: 64,
  pattern: '^[a-z][a-z0-9_]*$',
});
/** A stored release: package version plus build id (`0.1.0-4acbaffe`). */
export const ReleaseVersionField = Type.String({
  title: '版本',
  minLength: 1,
  maxLength: 128,
  pattern: '^[0-9A-Za-z][0-9A-Za-z.+_-]*$',
});
/** Why, for the audit log. */
export const ReleaseNoteField = Text('备注', { maxLength: 500 });

/** `canary`: a release that runs for a share of the signed-in users beside the stable one. */
export const REMOTE_ACTIONS = ['release', 'canary', 'rollback', 'promote'] as const;
export type RemoteAction = (typeof REMOTE_ACTIONS)[number];

/** The share of signed-in users a canary release may get (`remote release --canary N`). */
export const CANARY_PERCENT = { min: 1, max: 99 } as const;

/**
 * What the server finds of a release's files in its store before it rolls the release back on
 * its own: `ok` (the manifest reads and parses, the remote entry it names is there and not
 * empty: the failure happened at run time, e.g. a chunk that throws); the files are broken
 * (`manifest-missing`, `manifest-invalid`, `entry-missing`, `entry-empty`); or the store could
 * not be read (`unreadable`: nothing known either way).
 */
export const RELEASE_FILES_STATUS = [
  'ok',
  'manifest-missing',
  'manifest-invalid',
  'entry-missing',
  'entry-empty',
  'unreadable',
] as const;
export type ReleaseFilesStatus = (typeof RELEASE_FILES_STATUS)[number];

export const ReleaseFilesCheck = Type.Object({
  status: Type.Enum(RELEASE_FILES_STATUS),
  /** What was found, for ops (the file, its size, the error). */
  detail: Type.String(),
});
export type ReleaseFilesCheck = Static<typeof ReleaseFilesCheck>;

/** A canary running beside the stable version. */
export const RemoteCanaryInfo = Type.Object({
  version: Type.String(),
  /** Percentage of signed-in users that get it; signed-out browsers never do. */
  percent: Type.Integer(),
  startedAt: Type.String(),
  startedBy: Type.String(),
  note: Type.String(),
});
export type RemoteCanaryInfo = Static<typeof RemoteCanaryInfo>;

/** What a release, canary release, rollback or promote did to a remote's pointers. */
export const RemoteChange = Type.Object({
  remote: Type.String(),
  action: Type.Enum(REMOTE_ACTIONS),
  /**
   * The version active before; null for a remote's first release. For a rollback that ends a
   * canary, the canary version.
   */
  from: Type.Union([Type.String(), Type.Null()]),
  /** The version everyone gets now; for a canary release, the canary version. */
  to: Type.String(),
  note: Type.String(),
  /** The registry's last known good version right after the change. */
  lastKnownGood: Type.Union([Type.String(), Type.Null()]),
  /** The canary running after the change (null: everyone is on `to`). */
  canary: Type.Union([RemoteCanaryInfo, Type.Null()]),
  /** The canary version this change ended (promoted, rolled back or replaced), if any. */
  endedCanary: Type.Union([Type.String(), Type.Null()]),
});
export type RemoteChange = Static<typeof RemoteChange>;

export const RemoteVersionInfo = Type.Object({
  version: Type.String(),
  createdAt: Type.String(),
  createdBy: Type.String(),
  note: Type.String(),
  active: Type.Boolean(),
  lastKnownGood: Type.Boolean(),
  /** Load failures browsers reported for this version. */
  failures: Type.Integer(),
  /** When and by whom it was last made active (null: never, e.g. refused mid-way). */
  activatedAt: Type.Union([Type.String(), Type.Null()]),
  activatedBy: Type.Union([Type.String(), Type.Null()]),
  /** The share of signed-in users it runs for, while it is the remote's canary. */
  canaryPercent: Type.Union([Type.Integer(), Type.Null()]),
  /** When the server last rolled it back on its own (see `RemoteAutoRollback`). */
  autoRolledBackAt: Type.Union([Type.String(), Type.Null()]),
  /**
   * What the server found of its files before that rollback (null: never rolled back on its
   * own, or before the check existed).
   */
  autoRollbackFiles: Type.Union([Type.Enum(RELEASE_FILES_STATUS), Type.Null()]),
});
export type RemoteVersionInfo = Static<typeof RemoteVersionInfo>;

export const RemoteVersions = Type.Object({
  remote: Type.String(),
  active: Type.Union([Type.String(), Type.Null()]),
  lastKnownGood: Type.Union([Type.String(), Type.Null()]),
  canary: Type.Union([RemoteCanaryInfo, Type.Null()]),
  /** Newest release first. */
  versions: Type.Array(RemoteVersionInfo),
});
export type RemoteVersions = Static<typeof RemoteVersions>;

export const StoredRemoteFailure = Type.Object({
  id: Type.Integer(),
  ...RemoteLoadFailure.properties,
  userAgent: Type.String(),
  userId: Type.Union([Type.Integer(), Type.Null()]),
  /**
   * Whether it counts towards an automatic rollback: from a signed-in user the registry gave
   * this version (as active or fallback) since it went out, and, for a running canary, one in
   * the canary's share. Other reports are kept for ops but never roll anything back.
   */
  counted: Type.Boolean(),
  createdAt: Type.String(),
});
export type StoredRemoteFailure = Static<typeof StoredRemoteFailure>;

/**
 * A rollback the server made on its own: enough distinct signed-in users it had served
 * `version` (a canary, or a release activated within the window) reported it failing to load
 * within the window, and they were a large enough share of the users served it there.
 */
export const RemoteAutoRollback = Type.Object({
  id: Type.Integer(),
  remote: Type.String(),
  version: Type.String(),
  /** The version everyone is on afterwards. */
  to: Type.String(),
  /** True: a canary was ended; false: a fresh release was rolled back. */
  canary: Type.Boolean(),
  /** The signed-in users whose reports counted. */
  users: Type.Array(Type.Integer()),
  /**
   * Distinct users served the version within the window, the reporters among them (null:
   * recorded before serves were kept).
   */
  servedUsers: Type.Union([Type.Integer(), Type.Null()]),
  /** The least share of `servedUsers` the reporters had to be, in % (REMOTE_AUTO_ROLLBACK_SHARE). */
  sharePercent: Type.Union([Type.Integer(), Type.Null()]),
  /** What the server found of the version's files before acting (null: before the check). */
  files: Type.Union([ReleaseFilesCheck, Type.Null()]),
  /** Their errors, most frequent first. */
  errors: Type.Array(
    Type.Object({ phase: Type.String(), message: Type.String(), count: Type.Integer() }),
  ),
  windowMs: Type.Integer(),
  createdAt: Type.String(),
});
export type RemoteAutoRollback = Static<typeof RemoteAutoRollback>;

/** Limits of one uploaded build (`remote release`). */
export const MAX_RELEASE_BYTES = 100 * 1024 * 1024;
export const MAX_RELEASE_FILES = 2000;

export const adminEndpoints = {
  listUsers: endpoint({
    method: 'GET',
    path: '/api/admin/users',
    access: 'admin',
    summary: '用户列表',
    response: Type.Object({ items: Type.Array(AdminUser) }),
  }),
  createUser: endpoint({
    method: 'POST',
    path: '/api/admin/users/create',
    access: 'admin',
    summary: '创建用户',
    body: CreateUserBody,
    response: AdminUser,
  }),
  updateUser: endpoint({
    method: 'POST',
    path: '/api/admin/users/update',
    access: 'admin',
    summary: '修改用户',
    body: UpdateUserBody,
    response: AdminUser,
  }),
  disableUser: endpoint({
    method: 'POST',
    path: '/api/admin/users/disable',
    access: 'admin',
    summary: '停用用户（其会话立即失效）',
    body: Type.Object({ username: Username }),
    response: AdminUser,
  }),
  grantQuota: endpoint({
    method: 'POST',
    path: '/api/admin/quotas/grant',
    access: 'admin',
    summary: '增加（或扣减）用户额度',
    body: GrantQuotaBody,
    response: QuotaCounts,
  }),
  publishNotice: endpoint({
    method: 'POST',
    path: '/api/admin/notices/publish',
    access: 'admin',
    summary: '发布通知',
    body: PublishNoticeBody,
    response: PublishedNotice,
  }),
  listAudit: endpoint({
    method: 'GET',
    path: '/api/admin/audit',
    access: 'admin',
    summary: '审计记录',
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ title: '条数', minimum: 1, maximum: 1000, default: 50 })),
    }),
    response: Type.Object({ items: Type.Array(AuditEntry) }),
  }),
  releaseRemote: endpoint({
    method: 'POST',
    path: '/api/admin/remotes/release',
    access: 'admin',
    summary:
      '发布远程模块（multipart：字段 remote、note、可选 canary（灰度百分比 1-99），每个文件一段，文件名为相对构建目录的路径）',
    response: RemoteChange,
  }),
  listRemotes: endpoint({
    method: 'GET',
    path: '/api/admin/remotes',
    access: 'admin',
    summary: '远程模块及其版本',
    query: Type.Object({ remote: Type.Optional(RemoteNameField) }),
    response: Type.Object({ items: Type.Array(RemoteVersions) }),
  }),
  rollbackRemote: endpoint({
    method: 'POST',
    path: '/api/admin/remotes/rollback',
    access: 'admin',
    summary: '回滚远程模块到上一个（或指定的）版本；有灰度时结束灰度',
    body: Type.Object({
      remote: RemoteNameField,
      to: Type.Optional(ReleaseVersionField),
      note: Type.Optional(ReleaseNoteField),
    }),
    response: RemoteChange,
  }),
  promoteRemote: endpoint({
    method: 'POST',
    path: '/api/admin/remotes/promote',
    access: 'admin',
    summary: '启用远程模块的任一已存版本（灰度版本即全量）',
    body: Type.Object({
      remote: RemoteNameField,
      version: ReleaseVersionField,
      note: Type.Optional(ReleaseNoteField),
    }),
    response: RemoteChange,
  }),
  listRemoteFailures: endpoint({
    method: 'GET',
    path: '/api/admin/remotes/failures',
    access: 'admin',
    summary: '浏览器上报的远程模块加载失败（新的在前）',
    query: Type.Object({
      remote: Type.Optional(RemoteNameField),
      limit: Type.Optional(
        Type.Integer({ title: '条数', minimum: 1, maximum: 1000, default: 100 }),
      ),
    }),
    response: Type.Object({
      items: Type.Array(StoredRemoteFailure),
      /** The rollbacks the server made on its own, newest first (as many as `limit`). */
      autoRollbacks: Type.Array(RemoteAutoRollback),
    }),
  }),
};
