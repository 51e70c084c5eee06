import type { attendeeOps } from '../../shared/contracts/tickets';
import { createHandler } from '../../shared/http/handler';
import { created } from '../../shared/http/replies';
import * as compiled from '../../shared/schemas/compiled/checkInByQr';
import { checkInByCode } from '../../shared/services/tickets';

export const handler = createHandler<typeof attendeeOps.qrCheckIn>(compiled, async (req) => {
  const body = await checkInByCode(req.body, req);
  return created(body, body.attendee.rest_url);
});
