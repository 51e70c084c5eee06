import { describe, expect, it } from 'vitest';
import { notADate } from '../../shared/domain/date-forms';
import { imageView, storedHtmlText } from '../../shared/domain/html';

/**
 * Formatting rules of responses that are pure (shared/domain/html.ts, date-forms.ts).
 * test/integration/events.test.ts, venues.test.ts (images), stored-html-ids.test.ts and
 * linked-dates-first-write.test.ts keep proving them through HTTP.
 */

describe('storedHtmlText', () => {
  it('drops the tags and decodes the entities the sanitizer leaves', () => {
    expect(storedHtmlText('<p>Tom &amp; Jerry &lt;3 &quot;live&quot; &gt; 2&#39;s</p>')).toBe(
      'Tom & Jerry <3 "live" > 2\'s',
    );
  });

  it('decodes once: an escaped entity stays an entity', () => {
    expect(storedHtmlText('a &amp;lt; b')).toBe('a &lt; b');
  });

  it('trims what is left', () => {
    expect(storedHtmlText('  <p> Jazz </p>\n')).toBe('Jazz');
  });
});

describe('imageView', () => {
  it('is {url, id: null, extension}, the extension of the last path segment in lower case', () => {
    expect(imageView('https://cdn.example.com/img/Poster.PNG?v=2')).toEqual({
      url: 'https://cdn.example.com/img/Poster.PNG?v=2',
      id: null,
      extension: 'png',
    });
  });

  it('reads no extension from the query, the host or a folder', () => {
    const of = (url: string) => imageView(url).extension;

    expect([
      of('https://cdn.example.com/a.jpg'),
      of('https://cdn.example.com/image?name=a.gif'),
      of('https://cdn.example.com/'),
      of('https://cdn.example.com/v1.2/poster'),
    ]).toEqual(['jpg', '', '', '']);
  });

  it('reads a text that is no URL as a path', () => {
    expect(imageView('posters/jazz.webp').extension).toBe('webp');
  });
});

describe('notADate', () => {
  it('names the parameter and every form the service reads, and refuses impossible days', () => {
    const reason = notADate('date_utc');

    expect(reason).toMatch(/^date_utc is not a date: use Y-m-d H:i:s, Y-m-d H:i, Y-m-d, ISO 8601, /);
    expect(reason).toContain('m/d/Y (03/15/2027 7pm)');
    expect(reason).toMatch(/ or a relative phrase \([^)]*\); an impossible day \(2027-02-30\) is refused\.$/);
  });
});
