import { beforeAll, describe, expect, it, vi } from 'vitest';
import { main as slugsCli } from '../../scripts/slugs';
import { useStack } from '../support/use-stack';

/**
 * `npm run slugs` (issue 39): against a stack holding records whose slugs the old rule made (a name
 * renamed after its slug was made stands in for them: the service no longer makes such slugs).
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const WHEN = { start_date: '2027-10-01 10:00:00', end_date: '2027-10-01 11:00:00' };
const SITE = 'http://calendar.test';

async function ok(res: { status: number; body: unknown }, status = 200) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as { id: number; slug: string; url: string };
}
const event = async (title: string, extra = {}) =>
  ok(await api.post('/events', { title, ...WHEN, ...extra }, { token: editor }), 201);
const patchEvent = async (id: number, body: object) =>
  ok(await api.patch(`/events/${id}`, body, { token: editor }));

/** Runs the command; answers what it printed (stdout lines) and its summary (stderr). */
async function run(...args: string[]) {
  const lines: string[] = [];
  let summary = '';
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    summary += String(chunk);
    return true;
  });
  try {
    await slugsCli([...args, '--to', api.base, '--token', editor]);
  } finally {
    log.mockRestore();
    err.mockRestore();
  }
  return { lines, summary };
}

type Rec = { id: number; slug: string; url: string };
let juniper: Rec, tokyo: Rec, osaka: Rec, moscow: Rec, tag: Rec, venue: Rec, chosen: Rec, cafe: Rec;

beforeAll(async () => {
  // Slugs the old rule made: letters dropped, names collapsed, the ID for a name of no Latin letter.
  juniper = await event('Juniper');
  await patchEvent(juniper.id, { title: 'Концерт Juniper' });
  tokyo = await event('meetup');
  osaka = await event('meetup');
  await patchEvent(tokyo.id, { title: '東京-meetup' });
  await patchEvent(osaka.id, { title: '大阪-meetup' });
  moscow = await event('Placeholder');
  await patchEvent(moscow.id, { title: 'Москва-концерт', slug: String(moscow.id) });
  tag = await ok(await api.post('/tags', { name: 'Family' }, { token: editor }), 201);
  await ok(await api.patch(`/tags/${tag.id}`, { name: '家族', slug: String(tag.id) }, { token: editor }));
  venue = await ok(await api.post('/venues', { venue: 'Moscow Hall' }, { token: editor }), 201);
  await ok(
    await api.patch(
      `/venues/by-slug/${venue.slug}`,
      { venue: 'Москва-концерт', slug: String(venue.id) },
      { token: editor },
    ),
  );
  // Slugs someone chose, or that the new rule gives too, stay.
  chosen = await event('Свой выбор', { slug: 'my-choice' });
  cafe = await event('Café');
});

const MOSCOW = '%d0%bc%d0%be%d1%81%d0%ba%d0%b2%d0%b0-%d0%ba%d0%be%d0%bd%d1%86%d0%b5%d1%80%d1%82';
const expected = () => [
  `tag ${tag.id}: ${SITE}/tag/${tag.id}/ → ${SITE}/tag/%e5%ae%b6%e6%97%8f/`,
  `venue ${venue.id}: ${SITE}/venue/${venue.id}/ → ${SITE}/venue/${MOSCOW}/`,
  `event ${juniper.id}: ${SITE}/event/juniper/ → ${SITE}/event/%d0%ba%d0%be%d0%bd%d1%86%d0%b5%d1%80%d1%82-juniper/`,
  `event ${tokyo.id}: ${SITE}/event/meetup/ → ${SITE}/event/%e6%9d%b1%e4%ba%ac-meetup/`,
  `event ${osaka.id}: ${SITE}/event/meetup-2/ → ${SITE}/event/%e5%a4%a7%e9%98%aa-meetup/`,
  `event ${moscow.id}: ${SITE}/event/${moscow.id}/ → ${SITE}/event/${MOSCOW}/`,
];
const slugOf = async (path: string) =>
  ((await api.get(path, { token: editor })).body as { slug: string }).slug;

describe('npm run slugs', () => {
  it('lists the URL changes in a dry run and writes nothing', async () => {
    const { lines, summary } = await run();

    expect([...lines].sort()).toEqual(expected().sort());
    expect(summary).toMatch(/records checked, 6 to rename: run again with --apply to write\.\n$/);
    expect(await slugOf(`/events/${juniper.id}`)).toBe('juniper');
    expect(await slugOf(`/tags/${tag.id}`)).toBe(String(tag.id));
  });

  it('renames with --apply, keeps chosen slugs, and has nothing left to do after', async () => {
    const { lines, summary } = await run('--apply');

    expect([...lines].sort()).toEqual(expected().sort());
    expect(summary).toMatch(/records checked, 6 renamed\.\n$/);
    expect(await slugOf(`/events/${osaka.id}`)).toBe('%e5%a4%a7%e9%98%aa-meetup');
    expect(await slugOf(`/venues/${venue.id}`)).toBe(MOSCOW);
    expect(await slugOf(`/events/by-slug/Москва-концерт`)).toBe(MOSCOW);
    expect(await slugOf(`/events/${chosen.id}`)).toBe('my-choice');
    expect(await slugOf(`/events/${cafe.id}`)).toBe('cafe');
    expect((await run()).lines).toEqual([]);
  });

  it('answers bad input and an unreachable API with one line', async () => {
    await expect(slugsCli(['--bogus'])).rejects.toThrow(/^Unknown option '--bogus'.*Usage: npm run slugs/);
    await expect(slugsCli(['--to', 'http://127.0.0.1:9/cal/events/v1', '--token', 't'])).rejects.toThrow(
      /^No API answers at http:\/\/127\.0\.0\.1:9\/cal\/events\/v1/,
    );
  });
});
