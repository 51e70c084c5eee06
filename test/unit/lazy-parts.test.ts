import { describe, expect, it } from 'vitest';
import { publishedAt } from '../../shared/domain/published-at';
import { safeHtml } from '../../shared/domain/text';
import { httpUrl } from '../../shared/domain/web-input';
import { loadForBody } from '../../shared/http/lazy-parts';

/**
 * The handler has shared/http/lazy-parts.ts load what a body needs before the service runs, so the
 * domain's text, web and date functions stay synchronous: each part is loaded by the first body that
 * needs it, at any depth (an event's inline venue), and by no other.
 */
describe('loading what a body needs', () => {
  it('loads each part for the first body that needs it, at any depth, and none for other bodies', async () => {
    const inlineDate = { venue: [{ venue: 'Hall', date: '2025-01-02 03:04:05' }] };
    await loadForBody({ title: 'Plain', website: null, date: '', venue: [{ venue: 'Hall' }] });
    expect(() => safeHtml('<b>x</b>')).toThrow(/loaded the sanitizer/);
    expect(() => httpUrl('website', 'https://example.org')).toThrow(/loaded its checks/);
    expect(() => publishedAt(inlineDate.venue[0]!, new Date())).toThrow(/loaded its parser/);

    await loadForBody({ title: 'Plain', organizer: { organizer: 'O', email: 'o@example.org' } });
    expect(httpUrl('website', ' https://example.org ')).toBe('https://example.org');
    expect(() => safeHtml('<b>x</b>')).toThrow(/loaded the sanitizer/);

    await loadForBody(inlineDate);
    expect(publishedAt(inlineDate.venue[0]!, new Date())).toEqual({
      date: '2025-01-02 03:04:05',
      date_utc: '2025-01-02 03:04:05',
    });

    await loadForBody({ list: [[['a &amp; b']]] });
    expect(safeHtml('<b onclick="x()">x</b>')).toBe('<b>x</b>');
  });
});
