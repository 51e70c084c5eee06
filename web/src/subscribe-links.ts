import { API_ROOT } from './api-types';
import { apiFilters, type Filters, searchOf } from './filters';

// Where the subscribe menu's options lead (subscribe.ts): the view's feed, in each calendar program.

/** The feed as a calendar program subscribes to it: the same address with the webcal scheme. */
export const webcalOf = (url: string): string => url.replace(/^https?:\/\//i, 'webcal://');

export interface SubscribeLinks {
  google: string;
  apple: string;
  outlook365: string;
  outlookCom: string;
  feed: string;
}

/** Where each option leads for the feed at `feed` (absolute http(s) URL), named `name`. */
export function subscribeLinks(feed: string, name: string): SubscribeLinks {
  const webcal = webcalOf(feed);
  const outlook = (host: string) =>
    `https://${host}/owa?path=/calendar/action/compose&rru=addsubscription&url=${encodeURIComponent(webcal)}&name=${encodeURIComponent(name)}`;
  return {
    google: `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcal)}`,
    apple: webcal,
    outlook365: outlook('outlook.office.com'),
    outlookCom: outlook('outlook.live.com'),
    feed,
  };
}

/** The feed of a view's filters (the trash is never a feed's): its API path and whether it is filtered. */
export function feedOf(f: Filters): { path: string; filtered: boolean } {
  const q = searchOf(apiFilters({ ...f, trash: false }, false)).toString();
  return { path: `${API_ROOT}/events/ical${q ? `?${q}` : ''}`, filtered: q !== '' };
}
