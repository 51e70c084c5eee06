/**
 * What `npm run bench -- --tickets` writes (bench/tickets.ts) and its Markdown, rendered from the
 * results file alone between TICKETS_MARKERS of docs/benchmarks.md (test/unit/bench-report.test.ts
 * holds the document to the file).
 */
import type { BenchResults } from './report';
import { f1, short } from './report';
import { code, costTable, mdTable, number } from './report-markdown';
import type { RunInfo } from './run-info';

/** Registrations sent one at a time to a ticket with room: per request. */
export interface RegistrationFigures {
  requests: number;
  /** Answers other than 201. */
  errors: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** Means per registration. */
  calls: number;
  round_trips: number;
  wcu: number;
}

/** Many registrations at once for fewer seats. */
export interface RaceFigures {
  registrants: number;
  seats: number;
  /** Of the registrants, how many asked to join the waitlist when sold out. */
  asked_waitlist: number;
  /** Attendees going once settled, from the attendee list (must be exactly `seats`). */
  going: number;
  /** Attendees waiting, from the attendee list. */
  waitlisted: number;
  /** The ticket's own count of seats taken (capacity_details.sold). */
  sold: number;
  /** Answers: 201 going, 201 on the waitlist, 409 sold_out, anything else (by status). */
  answered_going: number;
  answered_waitlist: number;
  sold_out: number;
  other: Record<string, number>;
  /** From the first request sent to the last answer. */
  settle_ms: number;
  /** Per registration, means (lost races retried inside a request count in its calls). */
  calls: number;
  wcu: number;
}

export interface TicketsResults {
  sizes: number[];
  /** Share of the seeded events given a ticket. */
  share: number;
  /** The list cases across sizes, as the main report's. */
  cases: BenchResults['cases'];
  registration: RegistrationFigures;
  race: RaceFigures;
  run: RunInfo & { requests: number; seconds: number; setup: string[] };
}

/** The markers of a tickets report's generated part (`npm run bench -- --tickets --report`). */
export const TICKETS_MARKERS = {
  begin: '<!-- bench-tickets-report:begin',
  end: '<!-- bench-tickets-report:end -->',
};

/** The Markdown of a `--tickets` run, between TICKETS_MARKERS. */
export function renderTicketsReport(r: TicketsResults, source: string): string {
  const { run, registration: g, race: x } = r;
  const share = `${+(r.share * 100).toFixed(1)}%`;
  const lists: BenchResults = { sizes: r.sizes, cases: r.cases, coldStart: [] };
  const others = Object.entries(x.other)
    .map(([status, n]) => `${n} × HTTP ${status}`)
    .join(', ');
  return [
    `${TICKETS_MARKERS.begin} source=${source}: written by \`npm run bench -- --tickets --report\`; edits between these markers are overwritten -->`,
    `### Tickets (${r.sizes.map(short).join(' → ')} events, ${share} of them with a ticket)`,
    '',
    `From ${code(source)}: commit ${code(run.commit)}, ${run.date}, Node ${run.node}, ${run.cpus} CPUs; load average (1, 5, 15 min) ` +
      `${run.loadavg_before.join(', ')} before and ${run.loadavg_after.join(', ')} after; ${run.requests} requests per list case; ${run.seconds} s in all.`,
    '',
    ...run.setup.map((s) => `- ${s}`),
    '',
    `Lists with \`ticketed=\`, as the cost table above (the default listing for comparison):`,
    '',
    costTable(lists),
    '',
    ...r.cases.map((c) => `- ${code(c.name)}: ${c.note}`),
    '',
    `Registrations (\`POST /cal/tickets/v1/attendees\`) sent one at a time to a ticket with room, per request:`,
    '',
    mdTable(
      ['requests', 'p50 ms', 'p99 ms', 'max ms', 'calls', 'round trips', 'WCU', 'not 201'],
      [
        [
          String(g.requests),
          g.p50_ms.toFixed(1),
          g.p99_ms.toFixed(1),
          g.max_ms.toFixed(1),
          f1(g.calls),
          f1(g.round_trips),
          f1(g.wcu),
          String(g.errors),
        ],
      ],
      [0, 1, 2, 3, 4, 5, 6, 7],
    ),
    '',
    `${number(x.registrants)} registrations at once for ${x.seats} seats (${x.asked_waitlist} of them asking for the waitlist when sold out): ` +
      `**${x.going} going** once settled (the ticket counts ${x.sold} seats taken; ${x.going === x.seats && x.sold === x.seats ? 'exactly the capacity' : 'NOT the capacity'}), ` +
      `${x.waitlisted} on the waitlist; answers: ${x.answered_going} 201 going, ${x.answered_waitlist} 201 waitlist, ${x.sold_out} 409 \`sold_out\`` +
      `${others ? `, ${others}` : ''}. Settled ${number(Math.round(x.settle_ms))} ms after the first was sent; ` +
      `per registration ${f1(x.calls)} DynamoDB calls and ${f1(x.wcu)} WCU (lost races retried inside a request included).`,
    TICKETS_MARKERS.end,
  ].join('\n');
}
