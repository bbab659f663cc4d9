export * from './constants';
export * from './enums';
export * from './quota';
export * from './error-codes';
