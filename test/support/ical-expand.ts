import ICAL from 'ical.js';

/** One occurrence of a calendar as a client sees it. */
export interface Expanded {
  /** Epoch ms of its start (a date: midnight UTC of the day). */
  start: number;
  /** `Y-m-d` of a date-valued start, else undefined. */
  day?: string;
  title: string;
  uid: string;
}

/** Enough for any test calendar; a client's expansion that runs past it is a bug of the feed. */
const MAX_PER_SERIES = 5000;

/**
 * Every occurrence of an iCalendar text starting in [from, to] (epoch ms), expanded by an independent
 * implementation (Mozilla's ical.js, as Thunderbird does): RRULE, RDATE and EXDATE of each VEVENT, with
 * the VEVENTs of the same UID carrying a RECURRENCE-ID replacing the occurrences they name. The
 * calendar's own VTIMEZONEs define its TZIDs. Sorted by start, then title.
 */
export function expandCalendar(text: string, from: number, to: number): Expanded[] {
  const root = new ICAL.Component(ICAL.parse(text));
  for (const tz of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const vevents = root.getAllSubcomponents('vevent');
  const masters = vevents.filter((v) => !v.hasProperty('recurrence-id'));
  const exceptions = vevents.filter((v) => v.hasProperty('recurrence-id'));
  const out: Expanded[] = [];
  const push = (start: ICAL.Time, title: string, uid: string) => {
    const ms = start.toUnixTime() * 1000;
    if (ms < from || ms > to) return;
    out.push({
      start: ms,
      ...(start.isDate ? { day: start.toString().slice(0, 10) } : {}),
      title,
      uid,
    });
  };
  for (const master of masters) {
    const event = new ICAL.Event(master);
    for (const x of exceptions) if (x.getFirstPropertyValue('uid') === event.uid) event.relateException(x);
    if (!event.isRecurring()) {
      push(event.startDate, event.summary, event.uid);
      continue;
    }
    const it = event.iterator();
    let n = 0;
    for (let next = it.next(); next; next = it.next()) {
      if (++n > MAX_PER_SERIES) throw new Error(`${event.uid} expands past ${MAX_PER_SERIES} occurrences`);
      const details = event.getOccurrenceDetails(next);
      push(details.startDate, details.item.summary, event.uid);
    }
  }
  // An exception whose series is not in the calendar: a client shows it on its own.
  for (const x of exceptions) {
    const uid = x.getFirstPropertyValue('uid');
    if (!masters.some((m) => m.getFirstPropertyValue('uid') === uid)) {
      const event = new ICAL.Event(x);
      push(event.startDate, event.summary, event.uid);
    }
  }
  return out.sort((a, b) => a.start - b.start || a.title.localeCompare(b.title));
}
