// The payload schemas shared by the server (which validates with them) and the browser
// (which imports their types only, through the package root).
export * from './common';
export * from './user';
export * from './sso';
export * from './notice';
export * from './platform';
