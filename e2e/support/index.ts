export * from './a11y';
export * from './api';
export * from './browser';
export * from './mail';
export * from './server';
