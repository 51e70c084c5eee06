/**
 * The `recurrence` lines of the two halves of a split series (scope=following, docs/recurrence.md).
 * They are rewritten as text, the way a client would write them, so the halves read like any series.
 */

const compact = (wall: string) => wall.replace(/[-:]/g, '').replace(' ', 'T');
const floating = (wall: string) => new Date(`${wall.replace(' ', 'T')}Z`).getTime();
const wallOf = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** A line's value (`20260310`, `20260310T190000`, `…Z`) as a comparable wall time. */
const valueWall = (v: string) => {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2}))?/.exec(v.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]} ${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}` : '';
};

const isRule = (line: string) => /^RRULE:/i.test(line.trim());
const isRdate = (line: string) => /^RDATE[;:]/i.test(line.trim());

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

const withoutEnd = (rule: string) =>
  rule
    .split(';')
    .filter((p) => !/^(COUNT|UNTIL)=/i.test(p))
    .join(';');

/**
 * The lines of the part before `cut` (a rule start): the rule ends just before it (UNTIL the second
 * before, or the day before for an all-day series), and RDATEs from it on are dropped. (RDATE values
 * with a TZID or in UTC are compared by their written wall time.)
 */
export function cutLines(lines: string[], cut: string, allDay: boolean): string[] {
  const until = allDay
    ? compact(wallOf(floating(cut) - 86_400_000)).slice(0, 8)
    : compact(wallOf(floating(cut) - 1000));
  return rdates(lines, (w) => w < cut).map((line) => {
    if (!isRule(line)) return line;
    const rule = line.trim();
    const old = /UNTIL=([0-9TZ]+)/i.exec(rule)?.[1];
    // An earlier end of its own stays.
    if (old && valueWall(old) < cut) return rule;
    return `${withoutEnd(rule)};UNTIL=${until}`;
  });
}

/**
 * The lines of the part from the cut on: the same rule, its COUNT less the `used` occurrences before
 * the cut; RDATEs before the cut fall before the new start and are dropped by the expansion.
 */
export function restLines(lines: string[], used: number): string[] {
  return lines.map((line) => {
    if (!isRule(line)) return line;
    return line.trim().replace(/COUNT=(\d+)/i, (_, n: string) => `COUNT=${Math.max(1, Number(n) - used)}`);
  });
}
