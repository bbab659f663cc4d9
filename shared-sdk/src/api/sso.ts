import type { ssoEndpoints } from '../contracts/sso';
import { defineCall } from './define-call';

type E = typeof ssoEndpoints;

export const verifySsoTicket = defineCall<E['verify']>('GET', '/api/sso/verify');
export const getSsoLoginUrl = defineCall<E['login']>('GET', '/api/sso/login');
export const getSsoLogoutUrl = defineCall<E['logout']>('GET', '/api/sso/logout');
