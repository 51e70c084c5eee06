export { CalApiError, createClient } from './client.js';
export type { CalClient, ClientOptions, SendOptions } from './client.js';
export { operations } from './generated/operations.js';
export type { components, operations as OperationTypes, paths } from './generated/schema.js';
export type * from './types.js';
