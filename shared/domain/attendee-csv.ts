import type { AttendeeField } from './attendee-fields';
import { escapeFormula } from './csv-formulas';
import type { AttendeeRecord, TicketRecord } from './tickets';

/**
 * The attendee export (GET /attendees?format=csv, docs/tickets.md): its columns and rows. Pure: the
 * records in, the cells out, every cell a spreadsheet would run as a formula behind a `'` (CSV
 * injection, csv-formulas.ts): names and answers are the public's text.
 */

export const ATTENDEE_COLUMNS = [
  'Attendee ID',
  'Name',
  'E-mail',
  'Status',
  'Ticket ID',
  'Ticket',
  'Event ID',
  'Provider',
  'Registered (UTC)',
  'Checked in',
  'Checked in at (UTC)',
  'Security code',
] as const;

/** One column per question of the tickets listed, in ticket then field order; a label asked twice once. */
export function questionColumns(tickets: TicketRecord[]): Array<{ slug: string; header: string }> {
  const out: Array<{ slug: string; header: string }> = [];
  const seen = new Map<string, AttendeeField>();
  for (const t of tickets)
    for (const f of t.attendee_information_fields ?? []) {
      if (seen.has(f.slug)) continue;
      seen.set(f.slug, f);
      const taken = out.some((c) => c.header === f.label);
      out.push({ slug: f.slug, header: taken ? `${f.label} (${f.slug})` : f.label });
    }
  return out;
}

/** The header row and one row an attendee. */
export function attendeeRows(attendees: AttendeeRecord[], tickets: Map<number, TicketRecord>): string[][] {
  const questions = questionColumns([...tickets.values()].sort((a, b) => a.id - b.id));
  const header = [...ATTENDEE_COLUMNS, ...questions.map((q) => q.header)];
  const rows = attendees.map((a) => {
    const answer = (slug: string) => {
      const v = a.information?.[slug];
      return Array.isArray(v) ? v.join(', ') : (v ?? '');
    };
    return [
      String(a.id),
      a.full_name,
      a.email,
      a.status,
      String(a.ticket_id),
      tickets.get(a.ticket_id)?.title ?? '',
      String(a.post_id),
      a.provider,
      a.date_utc,
      a.checked_in ? 'yes' : 'no',
      a.checked_in && a.checkin_utc ? a.checkin_utc : '',
      a.status === 'going' ? a.security_code : '',
      ...questions.map((q) => answer(q.slug)),
    ];
  });
  return [header, ...rows].map((row) => row.map(escapeFormula));
}
