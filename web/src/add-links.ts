import { compactWall, wallAt, wallMs } from '../../shared/domain/wall-time';
import { API_ROOT, type CalEvent, venuesOf } from './api';

/**
 * "Add to calendar" for one event, as the reference's single-event links: Google Calendar's and
 * Outlook's compose pages filled from the event, and its `.ics` (GET /events/{id}/ical).
 */
const compact = compactWall;
const day = (wall: string) => wall.slice(0, 10).replace(/-/g, '');
const nextDay = (wall: string) => wallAt(wallMs(`${wall.slice(0, 10)} 00:00:00`) + 86_400_000).slice(0, 10);
const plain = (html: string) => {
  const div = document.createElement('div');
  div.innerHTML = html;
  return (div.textContent ?? '').replace(/\s+/g, ' ').trim();
};

export function addLinks(e: CalEvent): {
  google: string;
  outlook365: string;
  outlookCom: string;
  ics: string;
} {
  const venue = venuesOf(e).find((v) => v && v.venue);
  const where = venue
    ? [venue.venue, venue.address, venue.city, venue.country].filter(Boolean).join(', ')
    : '';
  const details = `${plain(e.description ?? '').slice(0, 500)}\n\n${e.url}`.trim();
  const google = new URLSearchParams({
    action: 'TEMPLATE',
    text: e.title,
    dates: e.all_day
      ? `${day(e.start_date)}/${day(nextDay(e.end_date))}`
      : `${compact(e.utc_start_date ?? '')}Z/${compact(e.utc_end_date ?? '')}Z`,
    details,
    location: where,
    ...(e.all_day ? {} : { ctz: e.timezone ?? 'UTC' }),
  });
  const outlook = (host: string) =>
    `https://${host}/calendar/0/deeplink/compose?${new URLSearchParams({
      path: '/calendar/action/compose',
      rru: 'addevent',
      subject: e.title,
      startdt: e.all_day ? e.start_date.slice(0, 10) : `${(e.utc_start_date ?? '').replace(' ', 'T')}Z`,
      enddt: e.all_day ? nextDay(e.end_date) : `${(e.utc_end_date ?? '').replace(' ', 'T')}Z`,
      allday: String(!!e.all_day),
      body: details,
      location: where,
    })}`;
  return {
    google: `https://calendar.google.com/calendar/render?${google}`,
    outlook365: outlook('outlook.office.com'),
    outlookCom: outlook('outlook.live.com'),
    ics: `${API_ROOT}/events/${e.id}/ical`,
  };
}

/** The links as the detail shows them. */
export function addLinksElement(e: CalEvent): HTMLElement {
  const links = addLinks(e);
  const p = document.createElement('p');
  p.className = 'links add-links';
  p.append('Add to calendar: ');
  const a = (text: string, href: string, role: string, download?: string) => {
    const link = document.createElement('a');
    link.textContent = text;
    link.href = href;
    link.dataset.role = role;
    if (download) link.download = download;
    else Object.assign(link, { target: '_blank', rel: 'noopener noreferrer' });
    return link;
  };
  p.append(
    a('Google Calendar', links.google, 'add-google'),
    ' · ',
    a('Outlook 365', links.outlook365, 'add-outlook365'),
    ' · ',
    a('Outlook.com', links.outlookCom, 'add-outlook-com'),
    ' · ',
    a('Add to calendar (.ics)', links.ics, 'add-ics', `${e.slug || e.id}.ics`),
  );
  return p;
}
