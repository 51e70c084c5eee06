/** The webhook engine: the stream batch, queued jobs and their signed deliveries. */
export { runJob } from './delivery';
export { STREAM_BATCH_RESERVE_MS, deliverQueuedJob, processStreamBatch } from './engine';
