export * from './api/records';
export * from './bridge/result';
export * from './bridge/contract';
export * from './bridge/events';
export * from './bridge/calls/session';
export * from './bridge/calls/app';
export * from './bridge/calls/conversations';
