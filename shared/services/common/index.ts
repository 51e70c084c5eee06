/** What every capability shares: the caller's context and ordered fan-out. */
export { allInOrder } from './all-in-order';
export { retryStale, staleError, type Caller, type Ref, type Writer } from './context';
