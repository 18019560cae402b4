export * from './labels';
export * from './accuracy';
export * from './overlap';
export * from './dynamics';
export * from './mechanism';
