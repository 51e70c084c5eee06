import { beforeAll, describe, expect, it } from 'vitest';
import { EMBED_SANDBOX, isAllowedEmbed, sandboxEmbeds } from '../../shared/domain/embeds';
import { safeHtml } from '../../shared/domain/text';
import { loadForBody } from '../../shared/http/lazy-parts';

/** Description embeds (issue 39, decisions §9): which iframes an editor's description keeps, and how. */
beforeAll(async () => {
  await loadForBody({ description: '<p>x</p>' });
});

const frame = (src: string, extra = '') => `<iframe src="${src}"${extra}></iframe>`;

describe('the embed sources', () => {
  it.each([
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', true],
    ['https://youtube.com/embed/dQw4w9WgXcQ?start=30', true],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', true],
    ['https://player.vimeo.com/video/76979871', true],
    ['https://www.google.com/maps/embed?pb=!1m18', true],
    ['http://www.youtube.com/embed/dQw4w9WgXcQ', false],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', false],
    ['https://www.google.com/search?q=x', false],
    ['https://evil.example/embed/x', false],
    ['https://www.youtube.com.evil.example/embed/x', false],
    ['https://user@www.youtube.com/embed/x', false],
    ['https://www.youtube.com:8443/embed/x', false],
    ['javascript:alert(1)', false],
    ['//www.youtube.com/embed/x', false],
    ['/embed/x', false],
  ])('%s: %s', (src, ok) => {
    expect(isAllowedEmbed(src)).toBe(ok);
  });
});

describe('safeHtml with embeds', () => {
  it('keeps a listed iframe with the allowed attributes only', () => {
    const html = frame(
      'https://www.youtube-nocookie.com/embed/abc',
      ' width="560" height="315" title="Trailer" allow="autoplay; encrypted-media" allowfullscreen loading="lazy" onload="alert(1)" style="x" sandbox="allow-top-navigation" srcdoc="<script>1</script>" name="n"',
    );
    expect(safeHtml(html, { embeds: true })).toBe(
      '<iframe src="https://www.youtube-nocookie.com/embed/abc" width="560" height="315" title="Trailer" allow="autoplay; encrypted-media" allowfullscreen loading="lazy"></iframe>',
    );
  });

  it.each([
    'https://evil.example/embed/x',
    'http://www.youtube.com/embed/x',
    'https://www.google.com/search?q=x',
    'javascript:alert(1)',
  ])('removes an iframe from %s, content and all', (src) => {
    expect(safeHtml(`<p>a</p>${frame(src)}<p>b</p>`, { embeds: true })).toBe('<p>a</p><p>b</p>');
  });

  it('removes every iframe without embeds (authors and contributors)', () => {
    expect(safeHtml(`<p>a</p>${frame('https://player.vimeo.com/video/1')}`)).toBe('<p>a</p>');
  });

  it('keeps the rest of the allow-list as it was', () => {
    const html = '<p onclick="x">Hi <a href="javascript:x">y</a><script>z</script></p>';
    expect(safeHtml(html, { embeds: true })).toBe(safeHtml(html));
  });
});

describe('sandboxEmbeds', () => {
  it('renders every iframe of stored HTML sandboxed', () => {
    expect(sandboxEmbeds(`<p>x</p>${frame('https://player.vimeo.com/video/1')}`)).toBe(
      `<p>x</p><iframe sandbox="${EMBED_SANDBOX}" src="https://player.vimeo.com/video/1"></iframe>`,
    );
    expect(EMBED_SANDBOX).toBe('allow-scripts allow-same-origin');
  });
});
