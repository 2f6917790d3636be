export * from './check';
export * from './facts';
export * from './format';
export * from './questions';
export * from './rules';
export * from './sentences';
export * from './synonym-checks';
export * from './types';
