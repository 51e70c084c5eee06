import { type AttendeeRecord, dateDetails, isAvailable, type TicketRecord } from '../../domain/tickets';
import type { AttendeeView, TicketView } from '../../schemas/tickets';

/** Tickets and attendees as answered, in the reference's shapes (docs/tickets.md). */

/** Whole percent, as the reference rounds it (0 for an unlimited or empty base). */
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

export function ticketView(
  t: TicketRecord,
  o: { root: string; host: string; nowWall: string; attendees?: AttendeeView[] },
): TicketView {
  const max = t.capacity;
  const available = max < 0 ? -1 : Math.max(0, max - t.sold);
  const unchecked = Math.max(0, t.sold - t.checked_in);
  const fields = t.attendee_information_fields ?? [];
  return {
    id: t.id,
    post_id: t.post_id,
    global_id: `${o.host}?id=${t.id}`,
    global_id_lineage: [`${o.host}?id=${t.id}`],
    author: t.author,
    status: t.status,
    date: t.date,
    date_utc: t.date_utc,
    modified: t.modified,
    modified_utc: t.modified_utc,
    rest_url: `${o.root}/tickets/${t.id}`,
    provider: t.provider,
    title: t.title,
    description: t.description,
    image: false,
    available_from: t.available_from ?? '',
    available_from_details: dateDetails(t.available_from),
    available_until: t.available_until ?? '',
    available_until_details: dateDetails(t.available_until),
    capacity: max,
    capacity_details: {
      available,
      available_percentage: max < 0 ? 100 : percent(available, max),
      max,
      sold: t.sold,
      pending: 0,
    },
    is_available: isAvailable(t, o.nowWall),
    cost: '0',
    cost_details: { currency_symbol: '', currency_position: 'prefix', values: ['0'] },
    ...(o.attendees ? { attendees: o.attendees } : {}),
    // As the reference (Event Tickets Plus) derives them: the questions asked, one of them required.
    supports_attendee_information: fields.length > 0,
    requires_attendee_information: fields.some((f) => f.required),
    attendee_information_fields: fields,
    rsvp: { rsvp_going: t.provider === 'rsvp' ? t.sold : 0, rsvp_not_going: t.not_going },
    checkin: {
      checked_in: t.checked_in,
      unchecked_in: unchecked,
      checked_in_percentage: percent(t.checked_in, t.sold),
      unchecked_in_percentage: t.sold > 0 ? 100 - percent(t.checked_in, t.sold) : 0,
    },
  };
}

/**
 * An attendee as answered; the e-mail address and the answers to the ticket's questions only to those
 * who manage the event's attendees (and to the registrant, in their own answers): `withEmail`.
 */
export function attendeeView(
  a: AttendeeRecord,
  o: { root: string; host: string; withEmail: boolean },
): AttendeeView {
  return {
    id: a.id,
    post_id: a.post_id,
    ticket_id: a.ticket_id,
    global_id: `${o.host}?id=${a.id}`,
    global_id_lineage: [`${o.host}?id=${a.id}`],
    author: a.author,
    status: a.status,
    date: a.date,
    date_utc: a.date_utc,
    modified: a.modified,
    modified_utc: a.modified_utc,
    rest_url: `${o.root}/attendees/${a.id}`,
    provider: a.provider,
    order: String(a.id),
    sku: '',
    title: a.full_name,
    ...(o.withEmail ? { email: a.email } : {}),
    checked_in: a.checked_in,
    checkin_details: a.checked_in && a.checkin_utc ? { date: a.checkin_utc, source: 'api' } : false,
    rsvp_going: a.status === 'going',
    information: o.withEmail ? (a.information ?? {}) : {},
  };
}
