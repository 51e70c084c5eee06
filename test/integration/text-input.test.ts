import { describe, expect, it } from 'vitest';
import { fingerprintTable } from '../support/fingerprint';
import { useStack } from '../support/use-stack';

/**
 * Text that stays text, through the gateway (issue 24): a body's bytes reach the handler as they were
 * sent, so bytes that are not text are a 400 naming the field and write nothing, a body in another
 * charset is read in it, and control characters are gone from what is stored and from the feeds.
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

type Rec = Record<string, any>;

async function send(path: string, body: Buffer | string, contentType: string) {
  const res = await fetch(`${api.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${editor}`, 'content-type': contentType },
    body,
  });
  return { status: res.status, body: (await res.json()) as Rec };
}

describe('a body', () => {
  it('with bytes that are not UTF-8 is a 400 naming the field, and writes nothing', async () => {
    const before = await fingerprintTable();
    const bytes = Buffer.concat([
      Buffer.from('{"title":"Caf'),
      Buffer.from([0xe9]),
      Buffer.from('","start_date":"2027-01-01","end_date":"2027-01-01"}'),
    ]);
    const res = await send('/events', bytes, 'application/json');
    expect(res.status).toBe(400);
    expect(res.body.data.params).toEqual({ title: 'title is not valid UTF-8 text.' });
    expect((await fingerprintTable()).hash).toBe(before.hash);
  });

  it('in windows-1252 is read in it, JSON or form', async () => {
    const json = await send(
      '/tags',
      Buffer.from('{"name":"Caf\xe9 \x80"}', 'latin1'),
      'application/json; charset=windows-1252',
    );
    expect(json.status).toBe(201);
    expect(json.body.name).toBe('Café €');
    const form = await send(
      '/categories',
      'name=Cr%E8me+%96+br%FBl%E9e',
      'application/x-www-form-urlencoded; charset=windows-1252',
    );
    expect(form.status).toBe(201);
    expect(form.body.name).toBe('Crème – brûlée');
  });

  it('in a charset nobody knows is a 415 naming what is accepted', async () => {
    const res = await send('/tags', '{"name":"x"}', 'application/json; charset=x-unknown');
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('rest_unsupported_charset');
    expect(res.body.message).toContain('UTF-8');
  });

  it('loses its control characters, in what is stored and in the feeds', async () => {
    const created = await api.post(
      '/events',
      {
        title: 'Jazz\u0000 Night\u0007',
        cost: '$1\u001b5',
        description: '<p>Line\u000b one\ttab</p>',
        start_date: '2027-01-15 20:00',
        end_date: '2027-01-15 23:00',
        venue: { venue: 'Hall\u0001', city: 'Paris' },
        organizer: [{ organizer: 'Society', phone: '+33\u0002 1 23' }],
      },
      { token: editor },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const event = (await api.get(`/events/${created.body.id}`)).body as Rec;
    expect(event.title).toBe('Jazz Night');
    expect(event.cost).toBe('$15');
    expect(event.description).toBe('<p>Line one\ttab</p>');
    expect(event.venue.venue).toBe('Hall');
    expect(event.organizer[0].phone).toBe('+33 1 23');
    const feed = await (await fetch(`${api.base}/events/${created.body.id}/ical`)).text();
    expect(feed.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f]/);
  });
});
