import { Type, type Static } from 'typebox';
import { Empty, Text, endpoint } from './common';
import { DRAFT_FOLDER_MAX_LENGTH, DRAFT_FOLDER_PATTERN } from '../draft-folder';

/** User info of spec section 3, with its defaults. */
export const UserInfo = Type.Object({
  userId: Type.Integer(),
  username: Type.String(),
  nickname: Type.String(),
  userData: Type.String(),
  phone: Type.String(),
  avatar: Type.String(),
  draftPath: Type.String(),
  status: Type.Integer({ default: -1 }),
  homePageUrl: Type.String(),
  functionalLevel: Type.Integer({ default: 0 }),
  registerSource: Type.String(),
  invitationCode: Type.String(),
  questionnaire: Type.Integer({ default: -1 }),
  feedback: Type.Integer({ default: 1 }),
  templateIds: Type.Array(Type.Integer({ minimum: 0, maximum: 6 })),
});
export type UserInfo = Static<typeof UserInfo>;

const limit = Type.Integer({ minimum: 0 });
/** The 24 fields of `get_user_limit_info`, exactly as spec section 7 names them. */
export const UsageLimits = Type.Object({
  remainGenCount: limit,
  remainRewardsGenerateCount: limit,
  remainMergeCount: limit,
  remainOverseaGenCount: limit,
  remainRewardsOverseaGenerateCount: limit,
  remainOverseaMergeCount: limit,
  remainCutCount: limit,
  remainRewardsDecompressionCount: limit,
  remainCutMergeCount: limit,
  remainOverseaCutCount: limit,
  remainRewardsOverseaDecompressionCount: limit,
  remainOverseaCutMergeCount: limit,
  remainScrollCount: limit,
  remainRewardsRollingCount: limit,
  remainXiGaoCount: limit,
  remainRewardsXiGaoCount: limit,
  remainXiGaoMergeCount: limit,
  remainMarketCount: limit,
  remainRewardsMarketCount: limit,
  remainMarketMergeCount: limit,
  remainSearchVideoCount: limit,
  remainRealPeopleVideoCount: limit,
  remainRewardsRealPeopleVideoCount: limit,
  remainRealPeopleVideoMergeCount: limit,
});
export type UsageLimits = Static<typeof UsageLimits>;

export const PhoneField = Type.String({ title: '手机号', pattern: '^(|1\\d{10})$', maxLength: 11 });
export const HomePageUrlField = Type.String({
  title: '发布账号主页',
  maxLength: 500,
  pattern: '^(|https?://\\S+)$',
});

export const LoginBody = Type.Object({
  username: Text('用户名', { minLength: 1, maxLength: 64 }),
  password: Text('密码', { minLength: 1, maxLength: 128 }),
});
export type LoginBody = Static<typeof LoginBody>;

export const RegisterBody = Type.Object({
  nickname: Text('昵称', { minLength: 1, maxLength: 32 }),
  phone: PhoneField,
  invitationCode: Type.Optional(Text('邀请码', { maxLength: 32 })),
  questionnaire: Type.Optional(Type.Integer({ minimum: -1, maximum: 99, title: '问卷' })),
});
export type RegisterBody = Static<typeof RegisterBody>;

export const UpdateUserInfoBody = Type.Object({
  nickname: Type.Optional(Text('昵称', { minLength: 1, maxLength: 32 })),
  avatar: Type.Optional(Text('头像', { maxLength: 500 })),
  phone: Type.Optional(PhoneField),
  homePageUrl: Type.Optional(HomePageUrlField),
  feedback: Type.Optional(Type.Integer({ minimum: 0, maximum: 1, title: '反馈' })),
});
export type UpdateUserInfoBody = Static<typeof UpdateUserInfoBody>;

/** The user's 剪映 drafts folder: an absolute folder or empty (`draft-folder.ts` says why). */
export const DraftPathField = Type.String({
  title: '剪映草稿文件夹',
  maxLength: DRAFT_FOLDER_MAX_LENGTH,
  pattern: DRAFT_FOLDER_PATTERN,
});

export const UpdateUserDraftBody = Type.Object({
  draftPath: DraftPathField,
});
export type UpdateUserDraftBody = Static<typeof UpdateUserDraftBody>;

export const UserTicket = Type.Object({
  ticket: Type.String(),
  /** ISO time after which the ticket is refused. */
  expiresAt: Type.String(),
});
export type UserTicket = Static<typeof UserTicket>;

export const userEndpoints = {
  login: endpoint({
    method: 'POST',
    path: '/api/user/login',
    access: 'public',
    summary: '账号密码登录',
    body: LoginBody,
    response: UserInfo,
  }),
  current: endpoint({
    method: 'GET',
    path: '/api/user/current',
    summary: '当前用户信息',
    response: UserInfo,
  }),
  ticket: endpoint({
    method: 'GET',
    path: '/api/user/ticket',
    summary: '为当前用户签发一次性票据',
    response: UserTicket,
  }),
  logout: endpoint({
    method: 'GET',
    path: '/api/user/logout',
    access: 'public',
    summary: '退出登录',
    response: Empty,
  }),
  updateUserInfo: endpoint({
    method: 'POST',
    path: '/api/user/update_user_info',
    summary: '修改个人信息',
    body: UpdateUserInfoBody,
    response: UserInfo,
  }),
  register: endpoint({
    method: 'POST',
    path: '/api/user/register',
    summary: '完成注册',
    body: RegisterBody,
    response: UserInfo,
  }),
  updateUserDraft: endpoint({
    method: 'POST',
    path: '/api/user/update_user_draft',
    summary: '保存剪映草稿文件夹',
    body: UpdateUserDraftBody,
    response: UserInfo,
  }),
  getUserLimitInfo: endpoint({
    method: 'GET',
    path: '/api/user/get_user_limit_info',
    summary: '各类型剩余次数',
    response: UsageLimits,
  }),
};
