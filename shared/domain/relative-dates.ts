import { DateTime, type Zone } from 'luxon';

const UNITS: Record<string, 'seconds' | 'minutes' | 'hours' | 'days' | 'weeks' | 'months' | 'years'> = {
  sec: 'seconds',
  second: 'seconds',
  min: 'minutes',
  minute: 'minutes',
  hour: 'hours',
  day: 'days',
  week: 'weeks',
  fortnight: 'weeks',
  month: 'months',
  year: 'years',
};
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

function applyTime(dt: DateTime, time: string | undefined): DateTime | undefined {
  if (!time) return dt;
  const m = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(am|pm)?$/.exec(time);
  if (!m) return undefined;
  let hour = Number(m[1]);
  if (m[4]) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (m[4] === 'pm' ? 12 : 0);
  }
  if (hour > 23) return undefined;
  return dt.set({ hour, minute: Number(m[2] ?? 0), second: Number(m[3] ?? 0), millisecond: 0 });
}

/**
 * The relative phrases WordPress clients send (PHP strtotime's common forms): `now`, `today`,
 * `tomorrow 9am`, `yesterday`, `+1 week`, `2 days ago`, `next monday 10am`, `last friday`, `noon`.
 */
export function parseRelative(
  input: string,
  zone: Zone,
  now: DateTime = DateTime.now(),
): DateTime | undefined {
  const s = input.trim().toLowerCase().replace(/\s+/g, ' ');
  const base = now.setZone(zone).set({ millisecond: 0 });
  let m = /^(now|today|midnight|noon|tomorrow|yesterday)(?: (?:at )?(.+))?$/.exec(s);
  if (m) {
    const day = {
      now: base,
      today: base.startOf('day'),
      midnight: base.startOf('day'),
      noon: base.set({ hour: 12, minute: 0, second: 0 }),
      tomorrow: base.plus({ days: 1 }).startOf('day'),
      yesterday: base.minus({ days: 1 }).startOf('day'),
    }[m[1]!]!;
    return applyTime(day, m[2]);
  }
  m =
    /^(next|last|this)? ?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?: (?:at )?(.+))?$/.exec(
      s,
    );
  if (m) {
    const target = WEEKDAYS.indexOf(m[2]!) + 1;
    let diff = target - base.weekday;
    if (m[1] === 'last') diff = diff >= 0 ? diff - 7 : diff;
    else if (m[1] === 'next' ? diff <= 0 : diff < 0) diff += 7;
    return applyTime(base.plus({ days: diff }).startOf('day'), m[3]);
  }
  m = /^([+-]?\d+) ?(sec|second|min|minute|hour|day|week|fortnight|month|year)s?( ago)?(?: (.+))?$/.exec(s);
  if (m) {
    const n = Number(m[1]) * (m[3] ? -1 : 1) * (m[2] === 'fortnight' ? 2 : 1);
    return applyTime(base.plus({ [UNITS[m[2]!]!]: n }), m[4]);
  }
  return undefined;
}
