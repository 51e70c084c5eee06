/**
 * Wall times as stored and shown (`Y-m-d H:i:s`, reference §2.5), handled as strings, and the one home
 * of wall-clock arithmetic: a wall time's fields read as if in UTC ("floating"), where no hour is
 * skipped or repeated, so 19:00 plus a week is 19:00 whatever the zone does. Placing a wall time in a
 * zone is the time maths' (time-maths.ts); reads need no time-zone library, because every stored wall
 * time has its UTC twin. No dependencies: the calendar page bundles it too.
 */

/** A wall time's fields as milliseconds, read as UTC (`2027-03-01 19:00:00` → its floating instant). */
export const wallMs = (wall: string): number => Date.parse(`${wall.replace(' ', 'T')}Z`);

/** The wall time whose fields are those of `ms` in UTC: the inverse of wallMs, and an instant's UTC wall. */
export const wallAt = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** A wall time moved by `ms` on the wall clock. */
export const wallPlus = (wall: string, ms: number): string => wallAt(wallMs(wall) + ms);

/** How far apart two wall times are on the wall clock, in ms (`a - b`). */
export const wallDiff = (a: string, b: string): number => wallMs(a) - wallMs(b);

/** RFC 5545's basic form of a wall time or date: `20270630T190000`, `20270630`. */
export const compactWall = (wall: string): string => wall.replace(/[-:]/g, '').replace(' ', 'T');

/** `{year, month, day, hour, minutes, seconds}` as zero-padded strings (reference §3.7). */
export function details(wallTime: string) {
  const [d = '', t = ''] = wallTime.split(' ');
  const [year, month, day] = d.split('-');
  const [hour, minutes, seconds] = t.split(':');
  return { year, month, day, hour, minutes, seconds };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** ISO 8601 with the offset the wall time has from its UTC twin: `2027-01-15T20:00:00-05:00`. */
export function isoWithOffset(wallTime: string, utcTime: string): string {
  const minutes = Math.round(wallDiff(wallTime, utcTime) / 60_000);
  if (Number.isNaN(minutes)) return wallTime;
  const a = Math.abs(minutes);
  return `${wallTime.replace(' ', 'T')}${minutes < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}
