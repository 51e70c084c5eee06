import { eventsStartingBetween } from '../../repositories/events';
import { setTicketCount } from '../../repositories/ticketed-events';
import { listTickets } from '../../repositories/tickets';

export interface TicketedReport {
  events: number;
  /** Events whose ticket count was set (the ticketed row and tallies moved with it). */
  set: number;
  ticketed: number;
}

/**
 * Sets every event's ticket count to the number of its tickets (`npm run reindex`, before the
 * tallies): the ticket writes keep it, so this is needed once on a table whose tickets were written
 * before events kept a count (`ticketed=` lists only events whose tickets were written since), or
 * after a hand edit. Each event is set in a write of its own, which moves its ticketed row and
 * tallies with the count; safe while the service serves (a race reads the event again).
 */
export async function rebuildTicketedEvents(
  progress: (r: TicketedReport) => void = () => {},
): Promise<TicketedReport> {
  const counts = new Map<number, number>();
  for (const t of await listTickets()) counts.set(t.post_id, (counts.get(t.post_id) ?? 0) + 1);
  const report: TicketedReport = { events: 0, set: 0, ticketed: 0 };
  for await (const e of eventsStartingBetween({ low: '0000', high: '9999~' }, 200)) {
    report.events++;
    const want = counts.get(e.id) ?? 0;
    if ((e.tickets ?? 0) !== want && (await setTicketCount(e.id, want))) report.set++;
    if (want > 0) report.ticketed++;
    if (report.events % 500 === 0) progress(report);
  }
  progress(report);
  return report;
}
