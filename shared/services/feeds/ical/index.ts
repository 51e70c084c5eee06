/** The iCalendar export: one event, a list of events, series as RRULE lines. */
export {
  eventCalendar,
  eventUid,
  eventsFeed,
  feedWindow,
  locationText,
  renderCalendar,
  sequenceOf,
  seriesUid,
  tzidOf,
  windowSlices,
} from './ical';
