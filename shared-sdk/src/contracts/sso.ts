import { Type, type Static } from 'typebox';
import { endpoint } from './common';
import { UserInfo } from './user';

export const RedirectUrl = Type.Object({ url: Type.String() });
export type RedirectUrl = Static<typeof RedirectUrl>;

export const ssoEndpoints = {
  verify: endpoint({
    method: 'GET',
    path: '/api/sso/verify',
    access: 'public',
    summary: '校验单点登录票据并建立会话',
    query: Type.Object({ ticket: Type.String({ title: '票据', minLength: 1, maxLength: 512 }) }),
    response: UserInfo,
  }),
  login: endpoint({
    method: 'GET',
    path: '/api/sso/login',
    access: 'public',
    summary: '单点登录地址',
    response: RedirectUrl,
  }),
  logout: endpoint({
    method: 'GET',
    path: '/api/sso/logout',
    access: 'public',
    summary: '单点登出地址',
    response: RedirectUrl,
  }),
};
