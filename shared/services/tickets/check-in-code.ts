import type { AttendeeRecord } from '../../domain/tickets';

/**
 * What a door's scanner reads (docs/tickets.md, "Check-in at the door"): the check-in address of an
 * attendee, `<api>/qr?ticket_id=&event_id=&security_code=`, which `POST /qr` takes. The same code is in
 * the confirmation mail (`qr.png`) and on the attendee's own page (an inline SVG: no request of its own).
 */
export function checkInAddress(root: string, attendee: AttendeeRecord): string {
  const address = new URL(`${root.replace(/\/$/, '')}/qr`);
  address.searchParams.set('ticket_id', String(attendee.id));
  address.searchParams.set('event_id', String(attendee.post_id));
  address.searchParams.set('security_code', attendee.security_code);
  return address.toString();
}

const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 2 } as const;

/** The check-in address as a PNG QR code (the mail's attachment). */
export async function checkInQrPng(address: string): Promise<Buffer> {
  const { toBuffer } = await import('qrcode');
  return toBuffer(address, { type: 'png', ...QR_OPTIONS });
}

/** The check-in address as an SVG QR code (about 3 KB), for a page. */
export async function checkInQrSvg(address: string): Promise<string> {
  const { toString } = await import('qrcode');
  return toString(address, { type: 'svg', ...QR_OPTIONS });
}
