// The payload schemas shared by the server (which validates with them) and the browser
// (which imports their types only, through the package root). This entry also carries the
// SDK's pure modules, so the server takes everything it needs from here and never loads
// the browser's HTTP client or storage.
export * from '../constants';
export * from '../enums';
export * from '../error-codes';
export * from '../quota';
export * from '../permissions';
export * from '../defaults';
export * from '../anime';
export * from '../speech-estimate';
export * from '../market';
export * from '../gender';
export * from '../voices';
export * from '../overseas';
export * from '../pictures';
export * from '../series';
export * from '../tweets';
export * from './common';
export * from './user';
export * from './sso';
export * from './notice';
export * from './platform';
export * from './video';
export * from './anime';
export * from './convert';
export * from './writing';
export * from './role';
export * from './edit';
export * from './cut-video';
export * from './series';
export * from './admin';
