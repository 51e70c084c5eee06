/** What other programs read: the iCalendar export and the change feed. */
export { listChanges } from './change-feed';
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
