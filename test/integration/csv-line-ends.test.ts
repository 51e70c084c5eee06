import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/** Issue 43: POST /imports with a CSV whose first line ends in CRLF and the others in LF. */
const { api, tokens } = await useStack({ tokens: { editor: 'editor' } });

describe('a CSV import with mixed line ends', () => {
  it('imports every row as its own event', async () => {
    const text =
      'Event Name,Event Start Date\r\nLineend A,2031-07-01\nLineend B,2031-07-02\nLineend C,2031-07-03\n';
    const res = await api.call('POST', '/imports', {
      raw: text,
      headers: { 'content-type': 'text/csv' },
      token: tokens.editor,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);

    const events = (
      await api.get('/events?search=Lineend&start_date=2031-07-01&end_date=2031-07-31', {
        token: tokens.editor,
      })
    ).body.events as Array<{ title: string; start_date: string }>;
    expect(events.map((e) => [e.title, e.start_date.slice(0, 10)]).sort()).toEqual([
      ['Lineend A', '2031-07-01'],
      ['Lineend B', '2031-07-02'],
      ['Lineend C', '2031-07-03'],
    ]);
  });
});
