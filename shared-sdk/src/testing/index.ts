// Test helpers for the packages that use the SDK (never imported by product code).
export * from './loopback-server';
export * from './fake-backend';
export * from './render-with-host';
export * from './detached-styles';
export * from './node-event-source';
export * from './fixtures';
/** A reload forgets the keys the SDK remembered (http/idempotency.ts). */
export { forgetIdempotencyKeys } from '../http/idempotency';
