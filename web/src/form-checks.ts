/**
 * The event form's own checks (issue 29), run before anything is sent so that every problem the page
 * can see is shown at once: the API stops at its first failing rule after its schema (an end before the
 * start is only reported once the title is fixed). Worded as the API words them; the API stays the judge.
 */
export interface EventFields {
  title: string;
  start_date: string;
  end_date: string;
  timezone: string;
  website: string;
  image: string;
}

/** `timezone "X"`: an IANA zone the browser knows, or UTC±N as the API also takes. */
function knownZone(zone: string): boolean {
  if (/^utc([+-]\d{1,2}(:?\d{2})?)?$/i.test(zone)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const isHttpUrl = (s: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(s).protocol);
  } catch {
    return false;
  }
};

/** `{field: message}` for each field the form can tell is wrong (values as typed, trimmed). */
export function checkEvent(f: EventFields): Record<string, string> {
  const out: Record<string, string> = {};
  if (!f.title) out.title = 'title must not be empty.';
  if (!f.start_date) out.start_date = 'start_date is required.';
  if (!f.end_date) out.end_date = 'end_date is required.';
  // datetime-local values (YYYY-MM-DDTHH:MM) compare as text.
  else if (f.start_date && f.end_date < f.start_date)
    out.end_date = 'end_date must not be before start_date.';
  if (f.timezone && !knownZone(f.timezone))
    out.timezone = `timezone "${f.timezone}" is not an IANA time zone or UTC±N.`;
  for (const name of ['website', 'image'] as const)
    if (f[name] && !isHttpUrl(f[name])) out[name] = `${name} must be an http or https URL.`;
  return out;
}
