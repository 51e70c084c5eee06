/**
 * Wall times as stored and shown (`Y-m-d H:i:s`, reference §2.5), handled as strings: reads need no
 * time-zone library, because every stored wall time has its UTC twin.
 */

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
  const ms = (t: string) => Date.parse(`${t.replace(' ', 'T')}Z`);
  const minutes = Math.round((ms(wallTime) - ms(utcTime)) / 60_000);
  if (Number.isNaN(minutes)) return wallTime;
  const a = Math.abs(minutes);
  return `${wallTime.replace(' ', 'T')}${minutes < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
}
