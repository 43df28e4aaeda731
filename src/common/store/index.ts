/** The message store's public surface. */
export type * from './model';
export type { Direction, StoreDelta } from './deltas';
export { MessageStore, type StoreOptions } from './store';
export type { CheckedMessage } from '../jsonrpc/rpc';
export { STORE_FORMAT_VERSION } from './persisted';
export { toReduceOutput } from './reduceOutput';
export { exportV1 } from './v1Export';
export { textOf } from './content';
