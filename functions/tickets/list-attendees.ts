import type { attendeeOps } from '../../shared/contracts/tickets';
import { createHandler } from '../../shared/http/handler';
import { csvReply, listReply } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/listAttendees';
import * as tickets from '../../shared/services/tickets';

const SHAPE = { key: 'attendees', pastEnd: 'empty', itemsFirst: false } as const;

/** CSV when asked for by `format=csv`, or by Accept naming text/csv without `format=json`. */
const wantsCsv = (format: string | undefined, accept: string | undefined) =>
  format === 'csv' || (format === undefined && /\btext\/csv\b/i.test(accept ?? ''));

export const handler = createHandler<typeof attendeeOps.list>(compiled, async (req) => {
  if (wantsCsv(req.query.format, req.headers.accept)) {
    const file = await tickets.attendeesCsv(req.query, req);
    return csvReply(file.text, file.name, file.rows);
  }
  return listReply(await tickets.listAttendees(req.query, req), SHAPE, req.urls);
});
