import { Type, type Static } from 'typebox';
import { QUOTA_TYPES } from '../quota';
import { Text, endpoint } from './common';
import { Notice, NoticeCategory } from './notice';
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

export const adminEndpoints = {
  listUsers: endpoint({
    method: 'GET',
    path: '/api/admin/users',
    summary: '用户列表',
    response: Type.Object({ items: Type.Array(AdminUser) }),
  }),
  createUser: endpoint({
    method: 'POST',
    path: '/api/admin/users/create',
    summary: '创建用户',
    body: CreateUserBody,
    response: AdminUser,
  }),
  updateUser: endpoint({
    method: 'POST',
    path: '/api/admin/users/update',
    summary: '修改用户',
    body: UpdateUserBody,
    response: AdminUser,
  }),
  disableUser: endpoint({
    method: 'POST',
    path: '/api/admin/users/disable',
    summary: '停用用户（其会话立即失效）',
    body: Type.Object({ username: Username }),
    response: AdminUser,
  }),
  grantQuota: endpoint({
    method: 'POST',
    path: '/api/admin/quotas/grant',
    summary: '增加（或扣减）用户额度',
    body: GrantQuotaBody,
    response: QuotaCounts,
  }),
  publishNotice: endpoint({
    method: 'POST',
    path: '/api/admin/notices/publish',
    summary: '发布通知',
    body: PublishNoticeBody,
    response: PublishedNotice,
  }),
  listAudit: endpoint({
    method: 'GET',
    path: '/api/admin/audit',
    summary: '审计记录',
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ title: '条数', minimum: 1, maximum: 1000, default: 50 })),
    }),
    response: Type.Object({ items: Type.Array(AuditEntry) }),
  }),
};
