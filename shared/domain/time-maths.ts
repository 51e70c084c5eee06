import { BEYOND, intlTimes } from './intl-times';

/**
 * The date maths of event times and list windows: Z a time zone, M an instant shown in one. Two
 * implementations give the same results: intl-times.ts (the platform's Intl, for wall-time inputs in
 * zones Intl knows) and luxon-times.ts (every input the contract reads, loaded on first use).
 */
export interface TimeMaths<Z, M> {
  /** The zone of a name (`UTC±N` or IANA), undefined when it is none. */
  zone(name: string): Z | undefined;
  site(): { zone: Z; name: string };
  /** A date parameter read in `zone`, or a 400 naming it. */
  read(param: string, value: unknown, zone: Z): M;
  /** The instant `at`, shown in `zone`. */
  at(at: Date, zone: Z): M;
  /** Calendar days or months later (earlier when negative), at the same wall time where it exists. */
  plusDays(m: M, days: number): M;
  plusMonths(m: M, months: number): M;
  dayStart(m: M): M;
  /** The day's last whole second. */
  dayEnd(m: M): M;
  ms(m: M): number;
  wall(m: M): string;
  utcWall(m: M): string;
  abbr(m: M): string;
}

/** A computation over either maths (generic in their zone and instant types). */
export type WithMaths<T> = <Z, M>(maths: TimeMaths<Z, M>) => T;

/**
 * `fn` with Intl's maths; when it meets an input only luxon reads (BEYOND), again with luxon's, loaded
 * on first use. Both give the same results (test/unit/intl-times.test.ts), so callers need not care.
 */
export async function withTimeMaths<T>(fn: WithMaths<T>): Promise<T> {
  try {
    return fn(intlTimes());
  } catch (e) {
    if (e !== BEYOND) throw e;
  }
  return fn((await import('./luxon-times')).luxonTimes);
}
