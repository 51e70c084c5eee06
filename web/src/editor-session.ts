import type { CalEvent } from './api';
import type { Snapshot } from './save-request';

/**
 * The editor's open session: the event being edited (null: a new one), the ETag of its version (a save
 * is conditional on it: If-Match) and the body as the form opened (an occurrence's save sends what
 * changed). Set by openEditor (editor.ts), read by saveEditor (editor-save.ts).
 */
export const session: { event: CalEvent | null; etag: string | null; opened: Snapshot } = {
  event: null,
  etag: null,
  opened: {},
};
