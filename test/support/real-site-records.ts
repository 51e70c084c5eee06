import type { Collection } from './replay-site';

/**
 * A site as a real one running the reference plugin answers it (issue 40's trial: The Events Calendar
 * 6.0.3.1 on WordPress 6.1), in the form its REST API gives: non-Latin slugs as lower-case
 * percent-encoded UTF-8 octets, titles and names through WordPress's display filters (`&#038;`,
 * `&#8220;…&#8221;`), term names with `&amp;`, event websites HTML-escaped and the permalink when
 * empty, descriptions with named entities and editors' `<iframe>` embeds, costs with their symbol
 * before or after the amount, drafts without a slug dated before a published namesake, and more than
 * one page of events.
 */

type Rec = Record<string, any> & { id: number };

const HOST = 'http://127.0.0.1:8089';
const term = (id: number, name: string, slug: string, parent = 0): Rec => ({
  id,
  name,
  slug,
  description: '',
  parent,
  count: 1,
  taxonomy: 'tribe_events_cat',
});
const venue = (id: number, name: string, slug: string, extra: Rec | object = {}): Rec => ({
  id,
  status: 'publish',
  url: `${HOST}/venue/${slug}/`,
  venue: name,
  slug,
  description: '',
  address: '',
  city: '',
  country: '',
  province: '',
  state: '',
  zip: '',
  phone: '',
  website: '',
  show_map: true,
  show_map_link: true,
  ...extra,
});
const organizer = (id: number, name: string, slug: string, extra: object = {}): Rec => ({
  id,
  status: 'publish',
  url: `${HOST}/organizer/${slug}/`,
  organizer: name,
  slug,
  description: '',
  phone: '',
  website: '',
  email: '',
  ...extra,
});

export function realSiteRecords(fillers = 55): Record<Collection, Rec[]> {
  const categories = [
    term(31, 'Arts &amp; Culture', 'arts-culture'),
    term(32, 'Jazz/Blues', 'jazz-blues', 31),
    term(33, '音楽', '%e9%9f%b3%e6%a5%bd'),
  ];
  const tags = [
    { ...term(41, '家族', '%e5%ae%b6%e6%97%8f'), taxonomy: 'post_tag' },
    { ...term(42, 'early_bird-special', 'early_bird-special'), taxonomy: 'post_tag' },
  ];
  const venues = [
    venue(
      51,
      '東京国際フォーラム',
      '%e6%9d%b1%e4%ba%ac%e5%9b%bd%e9%9a%9b%e3%83%95%e3%82%a9%e3%83%bc%e3%83%a9%e3%83%a0',
      {
        city: 'Tokyo',
        country: 'Japan',
        website: 'https://www.t-i-forum.co.jp/?lang=en&page=1',
      },
    ),
    venue(52, 'Old Theatre', 'old-theatre', { city: 'London', country: 'United Kingdom' }),
  ];
  const organizers = [
    organizer(61, 'Kids &#038; Co.', 'kids-co', { email: 'hello@kids.example.org' }),
    organizer(62, 'Festival Team &#8220;Sommerklang&#8221;', 'festival-team-sommerklang'),
  ];
  let id = 100;
  const event = (title: string, slug: string, start: string, extra: Rec | object = {}): Rec => {
    const url = `${HOST}/event/${slug || `?p=${id + 1}`}/`;
    return {
      id: ++id,
      status: 'publish',
      url,
      rest_url: `${HOST}/wp-json/tribe/events/v1/events/${id}`,
      title,
      slug,
      description: '',
      excerpt: '',
      image: false,
      all_day: false,
      start_date: `${start} 19:00:00`,
      end_date: `${start} 21:00:00`,
      timezone: 'Europe/London',
      cost: '',
      website: url,
      show_map: false,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
      ...extra,
    };
  };
  const events = [
    // Drafts have no slug at the source; dated before the published namesake, they come first.
    event('Coding Dojo', '', '2027-01-12', { status: 'draft' }),
    event('Coding Dojo', '', '2027-02-09', { status: 'pending' }),
    event('Coding Dojo', 'coding-dojo', '2027-03-09', { cost: '$12,50' }),
    event('音楽', '%e9%9f%b3%e6%a5%bd', '2027-04-03', {
      timezone: 'Asia/Tokyo',
      cost: '¥3000',
      categories: [categories[2]],
      tags: [tags[0]],
      venue: venues[0],
    }),
    event('Drum Circle 🥁', 'drum-circle-%f0%9f%a5%81', '2027-04-10', { cost: '€15' }),
    event('Rock &#038; Roll', 'rock-roll', '2027-05-01', {
      cost: '£8.50',
      website: 'https://tickets.example.org/rock?date=2027-05-01&amp;seat=a',
      description: '<p>Doors at eight &mdash; tickets &euro;15 at the door.</p>',
      categories: [categories[1]],
      tags: [tags[1]],
      venue: venues[1],
      organizer: [organizers[0]],
    }),
    event('Festival &#8220;Sommerklang&#8221;', 'festival-sommerklang', '2027-07-18', {
      cost: 'CHF20',
      description:
        '<p>Highlights:</p><iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" width="560" height="315"></iframe>',
      categories: [categories[0]],
      organizer: [organizers[1]],
    }),
    event('Open Call', 'open-call', '2027-08-01', {
      description: '<p>Apply here:</p><iframe src="https://forms.example.net/apply"></iframe>',
    }),
    ...Array.from({ length: fillers }, (_, i) =>
      event(
        `Open Studio ${i + 1}`,
        `open-studio-${i + 1}`,
        `2027-09-${String((i % 28) + 1).padStart(2, '0')}`,
      ),
    ),
  ];
  return { categories, tags, venues, organizers, events };
}
