import { invalidParam } from './errors';
import { compactWall, wallAt, wallMs } from './wall-time';

/**
 * The `recurrence` of an event as Google's Calendar API takes it: RFC 5545 content lines (`RRULE:…`,
 * `RDATE:…`, `EXDATE:…`). The one module that reads and writes their text: the API's checks, the
 * halves of a split series, the feed's series VEVENTs and the page's repeat control (web/src) all use
 * it; recurrence.ts expands them. No dependencies but errors.ts and wall-time.ts: the page bundles it.
 */

export type Freq = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
export type Weekday = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';

/** A date or date-time as written: its wall fields, and how to read them (`Z`, a TZID, or floating). */
export interface LineTime {
  /** `Y-m-d` or `Y-m-d H:i:s`. */
  wall: string;
  date: boolean;
  utc: boolean;
  tzid?: string;
}

export interface Rule {
  freq: Freq;
  interval: number;
  count?: number;
  until?: LineTime;
  byDay?: Array<{ day: Weekday; nth?: number }>;
  byMonthDay?: number[];
  byMonth?: number[];
  bySetPos?: number[];
  wkst?: Weekday;
}

export interface RecurrenceLines {
  rule?: Rule;
  rdates: LineTime[];
  exdates: LineTime[];
}

const FREQS: readonly string[] = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];
const DAYS: readonly string[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const PARTS = new Set([
  'FREQ',
  'INTERVAL',
  'COUNT',
  'UNTIL',
  'BYDAY',
  'BYMONTHDAY',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
]);
const SUPPORTED = 'FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS and WKST';

const bad = (reason: string): never => {
  throw invalidParam('recurrence', reason, 'rest_invalid_recurrence');
};

/** `20270630`, `20270630T190000` or `20270630T190000Z`, as wall fields. */
function readTime(value: string, tzid: string | undefined, dateOnly: boolean, what: string): LineTime {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value);
  if (!m || (dateOnly && m[4] !== undefined))
    return bad(`${what} "${value}" is not a date (20270630) or date-time (20270630T190000, or …Z for UTC).`);
  const [, y, mo, d, h, mi, s, z] = m;
  const date = h === undefined;
  const probe = new Date(Date.UTC(+y!, +mo! - 1, +d!, +(h ?? 0), +(mi ?? 0), +(s ?? 0)));
  const valid =
    +y! >= 1 &&
    probe.getUTCMonth() === +mo! - 1 &&
    probe.getUTCDate() === +d! &&
    +(h ?? 0) <= 23 &&
    +(mi ?? 0) <= 59 &&
    +(s ?? 0) <= 59;
  if (!valid) return bad(`${what} "${value}" is not a real date.`);
  if (z && tzid) return bad(`${what} "${value}" names a TZID and UTC (Z) at once: give one.`);
  const wall = date ? `${y}-${mo}-${d}` : `${y}-${mo}-${d} ${h}:${mi}:${s}`;
  return { wall, date, utc: !!z, ...(tzid ? { tzid } : {}) };
}

const integer = (part: string, v: string, min: number, max: number): number => {
  const n = /^[+-]?\d{1,4}$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min || n > max || n === 0)
    return bad(
      `RRULE ${part}=${v}: expected a whole number from ${min} to ${max}${min < 0 ? ', not 0' : ''}.`,
    );
  return n;
};
const list = <T>(v: string, one: (x: string) => T): T[] => v.split(',').map(one);

function readRule(value: string): Rule {
  const parts = new Map<string, string>();
  for (const pair of value.split(';')) {
    const [key = '', v, ...rest] = pair.split('=');
    if (v === undefined || v === '' || rest.length) return bad(`RRULE part "${pair}" is not NAME=VALUE.`);
    const name = key.toUpperCase();
    if (parts.has(name)) return bad(`RRULE names ${name} twice.`);
    parts.set(name, v.toUpperCase());
  }
  for (const name of parts.keys())
    if (!PARTS.has(name)) return bad(`RRULE part ${name} is not supported: use ${SUPPORTED}.`);
  const freq = parts.get('FREQ');
  if (!freq) return bad('RRULE needs FREQ (DAILY, WEEKLY, MONTHLY or YEARLY).');
  if (!FREQS.includes(freq))
    return bad(`RRULE FREQ=${freq} is not supported: use DAILY, WEEKLY, MONTHLY or YEARLY.`);
  if (parts.has('COUNT') && parts.has('UNTIL')) return bad('RRULE takes COUNT or UNTIL, not both.');
  const rule: Rule = { freq: freq as Freq, interval: 1 };
  const day = (x: string): Weekday => {
    if (!DAYS.includes(x)) return bad(`RRULE day "${x}" is not one of MO, TU, WE, TH, FR, SA, SU.`);
    return x as Weekday;
  };
  for (const [name, v] of parts) {
    if (name === 'INTERVAL') rule.interval = integer(name, v, 1, 1000);
    else if (name === 'COUNT') {
      if (/^[+-]?\d+$/.test(v) && Number(v) < 1)
        return bad(`RRULE COUNT=${v}: a series needs at least one event.`);
      rule.count = integer(name, v, 1, 1000);
    } else if (name === 'UNTIL') rule.until = readTime(v, undefined, false, 'RRULE UNTIL');
    else if (name === 'WKST') rule.wkst = day(v);
    else if (name === 'BYMONTH') rule.byMonth = list(v, (x) => integer(name, x, 1, 12));
    else if (name === 'BYMONTHDAY') rule.byMonthDay = list(v, (x) => integer(name, x, -31, 31));
    else if (name === 'BYSETPOS') rule.bySetPos = list(v, (x) => integer(name, x, -366, 366));
    else if (name === 'BYDAY')
      rule.byDay = list(v, (x) => {
        const m = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(x);
        if (!m) return bad(`RRULE BYDAY "${x}" is not a day (TU) or an ordinal day (1FR, -1SU).`);
        if (m[1] === undefined) return { day: day(m[2]!) };
        if (rule.freq !== 'MONTHLY' && rule.freq !== 'YEARLY')
          return bad(`RRULE BYDAY "${x}": an ordinal day needs FREQ=MONTHLY or YEARLY.`);
        return { day: day(m[2]!), nth: integer('BYDAY', m[1], -53, 53) };
      });
  }
  if (rule.bySetPos && !rule.byDay && !rule.byMonthDay && !rule.byMonth)
    return bad('RRULE BYSETPOS needs BYDAY, BYMONTHDAY or BYMONTH to pick from.');
  return rule;
}

/** The parameters of a content line (`EXDATE;TZID=Europe/Berlin;VALUE=DATE-TIME`). */
function readParams(params: string[], what: string) {
  let tzid: string | undefined;
  let dateOnly = false;
  for (const p of params) {
    const [k = '', v = ''] = p.split('=');
    const key = k.toUpperCase();
    if (key === 'TZID' && v) tzid = v;
    else if (key === 'VALUE' && /^DATE$/i.test(v)) dateOnly = true;
    else if (key === 'VALUE' && /^DATE-TIME$/i.test(v)) dateOnly = false;
    else return bad(`${what} parameter "${p}" is not supported: use TZID=<zone> or VALUE=DATE.`);
  }
  return { tzid, dateOnly };
}

/**
 * Reads `recurrence` lines: at most one RRULE (with only the parts this service expands), any RDATE and
 * EXDATE lines. Anything else is a 400 naming `recurrence` with what to change.
 */
export function readRecurrenceLines(lines: readonly string[]): RecurrenceLines {
  const out: RecurrenceLines = { rdates: [], exdates: [] };
  for (const raw of lines) {
    const line = raw.trim();
    const colon = line.indexOf(':');
    if (colon < 1)
      return bad(`"${line.slice(0, 80)}" is not a content line such as RRULE:FREQ=WEEKLY;BYDAY=TU.`);
    const [name = '', ...params] = line.slice(0, colon).split(';');
    const kind = name.toUpperCase();
    const value = line.slice(colon + 1).trim();
    if (kind === 'RRULE') {
      if (params.length) return bad('RRULE takes no parameters.');
      if (out.rule) return bad('A series takes one RRULE: use RDATE lines for extra dates.');
      out.rule = readRule(value);
    } else if (kind === 'RDATE' || kind === 'EXDATE') {
      const { tzid, dateOnly } = readParams(params, kind);
      const times = value.split(',').map((v) => readTime(v.trim(), tzid, dateOnly, kind));
      (kind === 'RDATE' ? out.rdates : out.exdates).push(...times);
    } else return bad(`${kind || line.slice(0, 40)} lines are not supported: use RRULE, RDATE and EXDATE.`);
  }
  if (!out.rule && !out.rdates.length) return bad('A series needs an RRULE or RDATE line.');
  return out;
}

/** A parameter (`tzid=Europe/Berlin`, `value=date`): its name upper case, VALUE's value too, TZID's as written. */
function normalParam(p: string): string {
  const eq = p.indexOf('=');
  if (eq < 0) return p.toUpperCase();
  const key = p.slice(0, eq).toUpperCase();
  const v = p.slice(eq + 1);
  return `${key}=${key === 'VALUE' ? v.toUpperCase() : v}`;
}

/**
 * A content line as stored and written to iCalendar (issue 43): property and parameter names and
 * enumerated values upper case (`rrule:freq=daily;byday=mo` → `RRULE:FREQ=DAILY;BYDAY=MO`), since strict
 * parsers refuse a whole calendar over one lowercase rule. An RRULE's every part is a name, a number, an
 * enumerated value or a date, so all of it is upper case; TZIDs and RDATE/EXDATE values stay as written.
 * A line that is not a content line is left trimmed, for readRecurrenceLines to refuse.
 */
export function normalLine(raw: string): string {
  const line = raw.trim();
  const colon = line.indexOf(':');
  if (colon < 1) return line;
  const [name = '', ...params] = line.slice(0, colon).split(';');
  const kind = name.toUpperCase();
  const value = line.slice(colon + 1).trim();
  const head = [kind, ...params.map(normalParam)].join(';');
  if (kind === 'RRULE') return `${head}:${value.toUpperCase()}`;
  return `${head}:${value
    .split(',')
    .map((v) => v.trim())
    .join(',')}`;
}

export const normalLines = (lines: readonly string[]): string[] => lines.map(normalLine);

/**
 * An RRULE line of `rule`, its parts in the order a person writes them (FREQ, the BY parts, INTERVAL
 * when not 1, WKST, then UNTIL or COUNT); `until` as written (`20270630`, `20270630T190000Z`).
 */
export function ruleLine(rule: Omit<Rule, 'until'> & { until?: string }): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.byDay) parts.push(`BYDAY=${rule.byDay.map((d) => `${d.nth ?? ''}${d.day}`).join(',')}`);
  if (rule.byMonthDay) parts.push(`BYMONTHDAY=${rule.byMonthDay.join(',')}`);
  if (rule.byMonth) parts.push(`BYMONTH=${rule.byMonth.join(',')}`);
  if (rule.bySetPos) parts.push(`BYSETPOS=${rule.bySetPos.join(',')}`);
  if (rule.interval > 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.wkst) parts.push(`WKST=${rule.wkst}`);
  if (rule.until) parts.push(`UNTIL=${rule.until}`);
  if (rule.count !== undefined) parts.push(`COUNT=${rule.count}`);
  return `RRULE:${parts.join(';')}`;
}

/** A line's date or date-time value of a wall time: `20270630` for a date, else `20270630T190000`. */
export const lineValue = (wall: string, date = false): string =>
  date ? compactWall(wall).slice(0, 8) : compactWall(wall);

export const isRuleLine = (line: string) => /^RRULE:/i.test(line.trim());
const isRdate = (line: string) => /^RDATE[;:]/i.test(line.trim());

/** An RRULE line as written, without its COUNT and UNTIL, ending at `until` (a line value) instead. */
export function ruleUntil(line: string, until: string): string {
  const kept = line
    .trim()
    .replace(/^RRULE:/i, '')
    .split(';')
    .filter((p) => !/^(COUNT|UNTIL)=/i.test(p));
  return `RRULE:${[...kept, `UNTIL=${until}`].join(';')}`;
}

/** A value (`20260310`, `20260310T190000`, `…Z`) as a comparable wall time, as written. */
const valueWall = (v: string) => {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2}))?/.exec(v.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]} ${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}` : '';
};

/** RDATE lines with only the values `keep` accepts (a line left with none is dropped). */
function rdates(lines: string[], keep: (wall: string) => boolean): string[] {
  return lines.flatMap((line) => {
    if (!isRdate(line)) return [line];
    const colon = line.indexOf(':');
    const values = line
      .slice(colon + 1)
      .split(',')
      .filter((v) => keep(valueWall(v)));
    return values.length ? [`${line.slice(0, colon)}:${values.join(',')}`] : [];
  });
}

/**
 * The lines of the part of a split series (scope=following, docs/recurrence.md) before `cut` (a rule
 * start): the rule ends just before it (UNTIL the second before, or the day before for an all-day
 * series), and RDATEs from it on are dropped. (RDATE values with a TZID or in UTC are compared by their
 * written wall time.) The halves are rewritten as text, the way a client would write them.
 */
export function cutLines(lines: string[], cut: string, allDay: boolean): string[] {
  const until = allDay
    ? lineValue(wallAt(wallMs(cut) - 86_400_000), true)
    : lineValue(wallAt(wallMs(cut) - 1000));
  return rdates(lines, (w) => w < cut).map((line) => {
    if (!isRuleLine(line)) return line;
    const rule = line.trim();
    const old = /UNTIL=([0-9TZ]+)/i.exec(rule)?.[1];
    // An earlier end of its own stays.
    if (old && valueWall(old) < cut) return rule;
    return ruleUntil(rule, until);
  });
}

/**
 * The lines of the part from the cut on: the same rule, its COUNT less the `used` occurrences before
 * the cut; RDATEs before the cut fall before the new start and are dropped by the expansion.
 */
export function restLines(lines: string[], used: number): string[] {
  return lines.map((line) => {
    if (!isRuleLine(line)) return line;
    return line.trim().replace(/COUNT=(\d+)/i, (_, n: string) => `COUNT=${Math.max(1, Number(n) - used)}`);
  });
}
