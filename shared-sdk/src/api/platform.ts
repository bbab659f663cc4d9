import type { platformEndpoints } from '../contracts/platform';
import { defineCall } from './define-call';

type E = typeof platformEndpoints;

export const getPlatformConfig = defineCall<E['config']>('GET', '/api/platform/config');
export const getRemoteRegistry = defineCall<E['remotes']>('GET', '/api/platform/remotes');
export const reportRemoteFailure = defineCall<E['reportRemoteFailure']>(
  'POST',
  '/api/platform/remote_failures',
);
