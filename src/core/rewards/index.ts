export * from './vote';
export * from './schemes';
