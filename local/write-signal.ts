import { dynamo } from '../shared/db/client';

/**
 * Tells the local stack's background loops that this process wrote to the table, so that an idle
 * loop (which polls slowly, local/webhooks.ts) looks at once: a write through the local gateway reaches
 * its webhook receivers as fast as with a tight poll, and an idle stack costs next to nothing.
 */
const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
  'TransactWriteItemsCommand',
]);
const listeners = new Set<() => void>();
let installed = false;

/** Calls `listener` after each successful write of the shared client; returns the unsubscribe. */
export function onLocalWrite(listener: () => void): () => void {
  if (!installed) {
    installed = true;
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        if (WRITES.has(context.commandName ?? '')) for (const l of listeners) l();
        return out;
      },
      // Outermost (high priority): a transaction's commit has been waited for (waitForLocalCommits).
      { step: 'initialize', name: 'localWriteSignal', priority: 'high' },
    );
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}
