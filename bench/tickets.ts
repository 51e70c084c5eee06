/**
 * `npm run bench -- --tickets`: what tickets and RSVP cost (issue 42, "Bench"), on the bench's stack.
 *
 * (a) Registrations (`POST /cal/tickets/v1/attendees`) sent one at a time to an unlimited ticket: p50
 *     and p99 of their time, DynamoDB calls, round trips and write units per registration (the bench's
 *     recorder, bench/usage.ts).
 * (b) N registrations at once for fewer seats (200 for 50 by default), half of them asking for the
 *     waitlist when sold out: how many are going once settled (read back from the attendee list and the
 *     ticket's own count; it must be exactly the seats, which the run reports and does not assert),
 *     the answers by kind, and the time from the first sent to the last answered.
 * (c) `GET /events?ticketed=true|false` at each size: events added in bulk (the bench's path) and a
 *     share of them given a ticket through the API, then the list cases measured over HTTP as the main
 *     bench's are, the default listing beside them for comparison.
 *
 * Registrations are sent with the bench's administrator token: issue 42's rate limits apply to
 * anonymous registrations (per address and per IP) and would refuse a bench's hundreds from one IP.
 */
import { pool } from '../import-export/src';
import { type EventBody, planEvents, type SeedRefs } from '../scripts/seed';
import { caseTable, type Figures, json } from './report';
import type { RaceFigures, RegistrationFigures, TicketsResults } from './tickets-report';
import { startRunInfo } from './run-info';
import { roundTrips, settled, startTrip, unsized, usage } from './usage';

export interface TicketsBenchOptions {
  /** The events API's root (`.../cal/events/v1`); the tickets API is its sibling. */
  base: string;
  token: string;
  sizes: number[];
  refs: SeedRefs;
  /** Registrations measured one at a time (after `warmup` unmeasured ones). */
  registrations: number;
  /** Registrations sent at once, for `seats` seats. */
  racers: number;
  seats: number;
  /** Share of the seeded events given a ticket. */
  share: number;
  /** Ticket creates in flight while seeding. */
  concurrency: number;
  commit: string;
  requests: number;
  warmup: number;
  /** The main bench's read measurement (its requests, concurrency and figures). */
  measureRead: (path: string) => Promise<Figures>;
  /** Events added through the bulk path, with progress: their IDs. */
  bulk: (bodies: EventBody[], label: string) => Promise<number[]>;
  log: (line: string) => void;
}

let shown = 0;
/** A progress line on stderr, about once a second (`force`: now, as a phase's last). */
const progress = (line: string, force = false) => {
  if (!force && performance.now() - shown < 1000) return;
  shown = performance.now();
  process.stderr.write(`\r  ${line}`.padEnd(90));
};

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const r1 = (x: number) => Math.round(x * 10) / 10;

export async function runTicketsBench(o: TicketsBenchOptions): Promise<TicketsResults> {
  const finished = startRunInfo(o.commit);
  const t0 = performance.now();
  const tickets = o.base.replace(/\/cal\/events\/v1$/, '/cal/tickets/v1');
  const auth = { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' };
  const setup: string[] = [];
  const note = (line: string) => {
    o.log(line);
    setup.push(line);
  };

  /** A request with the bench's token: its status and JSON. */
  const send = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(url, {
      method,
      headers: auth,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => undefined)) as Record<string, any> | undefined;
    return { status: res.status, body: json };
  };
  /** The same, refusing anything but 200 / 201 with a line naming it. */
  const made = async (method: string, url: string, body?: unknown) => {
    const res = await send(method, url, body);
    if (res.status !== 200 && res.status !== 201)
      throw new Error(`${method} ${url}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body!;
  };
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  /** A published event next month through the API, and a ticket of `capacity` seats on it (-1: unlimited). */
  const ticketed = async (title: string, capacity: number) => {
    const event = await made('POST', `${o.base}/events`, {
      title,
      status: 'publish',
      start_date: `${day(30)} 19:00:00`,
      end_date: `${day(30)} 22:00:00`,
    });
    return made('POST', `${tickets}/tickets`, { post_id: event.id, title: 'Entry', capacity });
  };
  const registration = (ticketId: number, who: string, waitlist = false) =>
    send('POST', `${tickets}/attendees`, {
      ticket_id: ticketId,
      full_name: `Bench ${who}`,
      email: `bench-${who}@example.com`,
      ...(waitlist ? { waitlist: true } : {}),
    });

  // (c) first at each size; (a) and (b) once, on the first size's calendar.
  const bySize = new Map<number, Map<string, Figures>>();
  const cases: Array<{ name: string; kind: 'read'; note: string; path: string }> = [];
  let events = 0;
  let withTickets = 0;
  let registrationFigures: RegistrationFigures | undefined;
  let raceFigures: RaceFigures | undefined;
  const deep = { yes: 2, no: 40 };
  for (const [round, size] of o.sizes.entries()) {
    const add = size - events;
    if (add > 0) {
      const ids = await o.bulk(planEvents(o.refs, { count: add, seed: 1000 + round }), `events to ${size}`);
      events += ids.length;
      // Every k-th new event gets a ticket, through the API (which moves its count, row and tallies).
      const step = Math.max(1, Math.round(1 / o.share));
      const chosen = ids.filter((_, i) => i % step === 0);
      let done = 0;
      await pool(chosen, o.concurrency, async (id) => {
        await made('POST', `${tickets}/tickets`, { post_id: id, title: 'Entry' });
        progress(`tickets at ${size}: ${++done}/${chosen.length}`, done === chosen.length);
      });
      process.stderr.write('\n');
      withTickets += chosen.length;
    }
    const count = async (query: string) =>
      Number((await fetch(`${o.base}/events?${query}`)).headers.get('x-cal-total'));
    const [listed, ticketedListed] = [await count(''), await count('ticketed=true')];
    note(
      `${size} events (${events} seeded in bulk), ${withTickets} of them with a ticket (${r1((withTickets / Math.max(events, 1)) * 100)}%); ` +
        `the default listing holds ${listed}, ${ticketedListed} of them ticketed.`,
    );

    if (round === 0) {
      // (a) Registrations one at a time, each measured alone.
      const open = await ticketed('Bench registrations', -1);
      for (let i = 0; i < o.warmup; i++) await registration(open.id, `warm-${i}`);
      const times: number[] = [];
      const sum = { calls: 0, trips: 0, wcu: 0, errors: 0 };
      for (let i = 0; i < o.registrations; i++) {
        progress(`registrations one at a time: ${i + 1}/${o.registrations}`, i + 1 === o.registrations);
        await settled();
        const before = { ...usage };
        startTrip();
        const start = performance.now();
        const res = await registration(open.id, `one-${i}`);
        times.push(performance.now() - start);
        sum.trips += roundTrips();
        await settled();
        sum.calls += usage.calls - before.calls;
        sum.wcu += usage.wcu - before.wcu;
        if (res.status !== 201) sum.errors++;
      }
      process.stderr.write('\n');
      const sorted = [...times].sort((a, b) => a - b);
      const n = o.registrations;
      registrationFigures = {
        requests: n,
        errors: sum.errors,
        p50_ms: r1(quantile(sorted, 0.5)),
        p99_ms: r1(quantile(sorted, 0.99)),
        max_ms: r1(sorted.at(-1)!),
        calls: r1(sum.calls / n),
        round_trips: r1(sum.trips / n),
        wcu: r1(sum.wcu / n),
      };
      o.log(
        `Registrations one at a time: p50 ${registrationFigures.p50_ms} ms, p99 ${registrationFigures.p99_ms} ms, ` +
          `${registrationFigures.calls} calls, ${registrationFigures.round_trips} round trips, ${registrationFigures.wcu} WCU each (${sum.errors} not 201).`,
      );

      // (b) Registrations at once for fewer seats.
      const full = await ticketed('Bench race', o.seats);
      progress(`${o.racers} registrations at once for ${o.seats} seats`, true);
      await settled();
      const before = { ...usage };
      const start = performance.now();
      const answers = await Promise.all(
        Array.from({ length: o.racers }, (_, i) => registration(full.id, `race-${i}`, i % 2 === 1)),
      );
      const settleMs = performance.now() - start;
      await settled();
      process.stderr.write('\n');
      const calls = usage.calls - before.calls;
      const wcu = usage.wcu - before.wcu;
      const other: Record<string, number> = {};
      let answeredGoing = 0;
      let answeredWaitlist = 0;
      let soldOut = 0;
      for (const a of answers)
        if (a.status === 201 && a.body?.status === 'going') answeredGoing++;
        else if (a.status === 201 && a.body?.status === 'waitlist') answeredWaitlist++;
        else if (a.status === 409 && a.body?.code === 'sold_out') soldOut++;
        else other[String(a.status)] = (other[String(a.status)] ?? 0) + 1;
      // What the table holds once settled: the attendee list, and the ticket's own count.
      const statuses: Record<string, number> = {};
      for (let page = 1; ; page++) {
        const res = await made('GET', `${tickets}/attendees?ticket_id=${full.id}&per_page=50&page=${page}`);
        for (const a of res.attendees as Array<{ status: string }>)
          statuses[a.status] = (statuses[a.status] ?? 0) + 1;
        if (page >= Number(res.total_pages)) break;
      }
      const sold = Number((await made('GET', `${tickets}/tickets/${full.id}`)).capacity_details.sold);
      raceFigures = {
        registrants: o.racers,
        seats: o.seats,
        asked_waitlist: Math.floor(o.racers / 2),
        going: statuses.going ?? 0,
        waitlisted: statuses.waitlist ?? 0,
        sold,
        answered_going: answeredGoing,
        answered_waitlist: answeredWaitlist,
        sold_out: soldOut,
        other,
        settle_ms: r1(settleMs),
        calls: r1(calls / o.racers),
        wcu: r1(wcu / o.racers),
      };
      const exact = raceFigures.going === o.seats && sold === o.seats;
      o.log(
        `${o.racers} registrations at once for ${o.seats} seats: ${raceFigures.going} going (${exact ? 'exactly the seats' : 'NOT THE SEATS: capacity exceeded or seats left'}), ` +
          `${raceFigures.waitlisted} waiting; answers ${answeredGoing} going, ${answeredWaitlist} waitlist, ${soldOut} sold_out, other ${JSON.stringify(other)}; ` +
          `settled in ${Math.round(settleMs)} ms.`,
      );
    }

    // Deep pages chosen at the first size (the last one when there are fewer) and kept at the others.
    if (round === 0) {
      const pages = async (query: string) =>
        Number((await fetch(`${o.base}/events?${query}`)).headers.get('x-cal-totalpages'));
      deep.yes = Math.max(1, Math.min(2, await pages('ticketed=true')));
      deep.no = Math.max(1, Math.min(40, await pages('ticketed=false')));
    }
    const read = [
      {
        name: 'GET /events (default)',
        path: '/events',
        note: 'upcoming events, first page (for comparison)',
      },
      {
        name: 'GET /events?ticketed=true',
        path: '/events?ticketed=true',
        note: 'events with a ticket, first page',
      },
      {
        name: `GET /events?ticketed=true&page=${deep.yes}`,
        path: `/events?ticketed=true&page=${deep.yes}`,
        note: 'events with a ticket, the second page (the last one at the first size when there are fewer)',
      },
      {
        name: 'GET /events?ticketed=false',
        path: '/events?ticketed=false',
        note: 'events without a ticket, first page',
      },
      {
        name: `GET /events?ticketed=false&page=${deep.no}`,
        path: `/events?ticketed=false&page=${deep.no}`,
        note: 'events without a ticket, a deep page (page 40, or the last one at the first size when there are fewer)',
      },
    ];
    if (round === 0) cases.push(...read.map((c) => ({ ...c, kind: 'read' as const })));
    const results = new Map<string, Figures>();
    for (const [i, c] of read.entries()) {
      progress(`${size} events: case ${i + 1}/${read.length} ${c.name}`, i + 1 === read.length);
      await pool(Array.from({ length: o.warmup }), 4, () =>
        fetch(`${o.base}${c.path}`).then((r) => r.arrayBuffer()),
      );
      const f = await o.measureRead(c.path);
      if (f.errors > 0) o.log(`\n  ! ${c.name}: ${f.errors} answers other than 200 at ${size}`);
      results.set(c.name, f);
    }
    process.stderr.write('\n');
    bySize.set(size, results);
  }
  o.log('\nLists with ticketed= (per request: means; ✓ = calls and RCU within 1.5x):\n');
  o.log(caseTable(cases, o.sizes, bySize));
  if (unsized.count) note(`${unsized.count} writes could not be sized: their write units are left out.`);

  return {
    sizes: o.sizes,
    share: o.share,
    cases: json(o.sizes, cases, bySize, []).cases,
    registration: registrationFigures!,
    race: raceFigures!,
    run: {
      ...finished(),
      requests: o.requests,
      seconds: Math.round((performance.now() - t0) / 1000),
      setup,
    },
  };
}
