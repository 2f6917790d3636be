export * from './files';
export * from './format';
export * from './junit';
export * from './parse';
export * from './refs';
export * from './reply';
export * from './run';
export * from './types';
export { EXPECTATIONS } from './expectations/index';
