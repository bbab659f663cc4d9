export * from './sentences';
export * from './lines';
export * from './words';
export * from './clean-script';
export * from './roles-in';
