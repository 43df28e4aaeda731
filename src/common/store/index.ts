/** The message store's public surface. */
export type * from './model';
export type { Direction, StoreDelta } from './deltas';
export { MessageStore, type StoreOptions } from './store';
export type { CheckedMessage } from './rpc';
export { type PersistedStore, STORE_FORMAT, STORE_FORMAT_VERSION } from './persisted';
export { toReduceOutput, type ReduceOutput } from './reduceOutput';
export { exportV1, type V1ExportResult } from './v1Export';
export { textOf } from './content';
