export * from './advantages';
export * from './logprobs';
export * from './loss';
export * from './update';
export * from './nonfinite';
