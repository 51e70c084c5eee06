import { describe, expect, it } from 'vitest';
import { CalApiError, createClient } from '../../client/src';

/**
 * The client's own run-time part over a stub fetch: how it builds requests and reads answers. That the
 * requests are the API's is tested where the integration tests, the page and the seed use it.
 */
type Sent = { url: string; method: string; headers: Record<string, string>; body?: string };

function stub(answers: Array<{ status: number; body?: unknown; headers?: Record<string, string> }>) {
  const sent: Sent[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    sent.push({
      url,
      method: init.method!,
      headers: init.headers as Record<string, string>,
      body: init.body as string | undefined,
    });
    const a = answers.shift()!;
    const text = a.body === undefined ? null : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
    return new Response(text, {
      status: a.status,
      headers: { 'content-type': 'application/json', ...a.headers },
    });
  };
  return { sent, fetch };
}

const BASE = 'https://api.example.com/cal/events/v1';
const page = (ids: number[], next?: string) => ({
  events: ids.map((id) => ({ id })),
  rest_url: '',
  total: 3,
  total_pages: 2,
  ...(next ? { next_rest_url: next } : {}),
});

describe('the typed client', () => {
  it('fills the path, joins list parameters with commas and sends the bearer token', async () => {
    const { sent, fetch } = stub([{ status: 200, body: page([]) }]);
    const cal = createClient({ baseUrl: `${BASE}/`, token: () => 'tok', fetch });

    await cal.listEvents({ query: { categories: ['jazz', 7], per_page: 5, featured: true } });

    expect(sent[0]).toMatchObject({
      method: 'GET',
      url: `${BASE}/events?categories=jazz%2C7&per_page=5&featured=true`,
      headers: { authorization: 'Bearer tok' },
    });
  });

  it('sends the body as JSON with If-Match or Idempotency-Key, and answers with the ETag', async () => {
    const { sent, fetch } = stub([
      { status: 201, body: { id: 4 }, headers: { etag: '"4-1-x"' } },
      { status: 200, body: { id: 4 } },
    ]);
    const cal = createClient({ baseUrl: BASE, token: 'tok', fetch });

    const made = await cal.createVenue({ body: { venue: 'Hall' }, idempotencyKey: 'k-1' });
    await cal.updateVenue({ path: { id: 4 }, body: { city: 'Oslo' }, ifMatch: made.etag, token: null });

    expect(made).toMatchObject({ status: 201, data: { id: 4 }, etag: '"4-1-x"' });
    expect(sent[0]).toMatchObject({
      method: 'POST',
      url: `${BASE}/venues`,
      headers: { 'idempotency-key': 'k-1', 'content-type': 'application/json' },
      body: '{"venue":"Hall"}',
    });
    expect(sent[1]!.headers).toEqual({ 'if-match': '"4-1-x"', 'content-type': 'application/json' });
  });

  it('throws a CalApiError holding the error envelope', async () => {
    const envelope = {
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): id',
      data: { status: 400 },
    };
    const { fetch } = stub([{ status: 400, body: envelope }]);
    const cal = createClient({ baseUrl: BASE, fetch });

    const error = await cal.getEvent({ path: { id: 1 } }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(CalApiError);
    expect(error).toMatchObject({ status: 400, code: 'rest_invalid_param', body: envelope });
  });

  it('makes up an envelope when the answer is not one (a proxy page)', async () => {
    const { fetch } = stub([{ status: 502, body: '<html>', headers: { 'content-type': 'text/html' } }]);
    const cal = createClient({ baseUrl: BASE, fetch });

    await expect(cal.getEvent({ path: { id: 1 } })).rejects.toMatchObject({
      status: 502,
      body: { code: 'not_json', data: { status: 502 } },
    });
  });

  it('pages on next_rest_url below its own base URL, the token sent on every page', async () => {
    const { sent, fetch } = stub([
      { status: 200, body: page([1, 2], 'https://cdn.example.net/cal/events/v1/events?page=2&per_page=2') },
      { status: 200, body: page([3]) },
    ]);
    const cal = createClient({ baseUrl: '/cal/events/v1', fetch });

    const ids: number[] = [];
    for await (const event of cal.items('listEvents', { query: { per_page: 2 }, token: 't' }))
      ids.push(event.id);

    expect(ids).toEqual([1, 2, 3]);
    expect(sent.map((s) => [s.url, s.headers.authorization])).toEqual([
      ['/cal/events/v1/events?per_page=2', 'Bearer t'],
      ['/cal/events/v1/events?page=2&per_page=2', 'Bearer t'],
    ]);
  });

  it('ends the pages when a next page is gone (the list shrank), but not a first page', async () => {
    const gone = { code: 'rest_event_invalid_page_number', message: 'x', data: { status: 404 } };
    const { fetch } = stub([
      { status: 200, body: page([1], `${BASE}/events?page=2`) },
      { status: 404, body: gone },
      { status: 404, body: gone },
    ]);
    const cal = createClient({ baseUrl: BASE, fetch });

    const pages = [];
    for await (const p of cal.pages('listEvents')) pages.push(p);
    expect(pages).toHaveLength(1);
    await expect(cal.pages('listEvents').next()).rejects.toBeInstanceOf(CalApiError);
  });

  it('reads the iCalendar feeds as text', async () => {
    const { fetch } = stub([
      { status: 200, body: 'BEGIN:VCALENDAR', headers: { 'content-type': 'text/calendar; charset=utf-8' } },
    ]);
    const cal = createClient({ baseUrl: BASE, fetch });

    expect((await cal.getEventsIcal()).data).toBe('BEGIN:VCALENDAR');
  });
});
