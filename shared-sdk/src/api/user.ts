import type { userEndpoints } from '../contracts/user';
import { defineCall } from './define-call';

type E = typeof userEndpoints;

export const login = defineCall<E['login']>('POST', '/api/user/login');
export const getCurrentUser = defineCall<E['current']>('GET', '/api/user/current');
export const getUserTicket = defineCall<E['ticket']>('GET', '/api/user/ticket');
export const logout = defineCall<E['logout']>('GET', '/api/user/logout');
export const updateUserInfo = defineCall<E['updateUserInfo']>('POST', '/api/user/update_user_info');
export const register = defineCall<E['register']>('POST', '/api/user/register');
export const updateUserDraft = defineCall<E['updateUserDraft']>(
  'POST',
  '/api/user/update_user_draft',
);
export const getUserLimitInfo = defineCall<E['getUserLimitInfo']>(
  'GET',
  '/api/user/get_user_limit_info',
);
