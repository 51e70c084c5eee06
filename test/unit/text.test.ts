import sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { plainText, safeHtml } from '../../shared/domain/text';
import { loadForBody } from '../../shared/http/lazy-parts';

/**
 * shared/domain/text.ts loads sanitize-html only for text holding `<`, `>` or `&`, because the
 * sanitizer changes any other text only by trimming it. Checked here against the sanitizer itself.
 */
const sanitizers = [
  (s: string) => sanitizeHtml(s).trim(),
  (s: string) => sanitizeHtml(s, { allowedTags: [], allowedAttributes: {} }).trim(),
];

describe('text without markup', () => {
  it('is what the sanitizer makes of it, for every UTF-16 code unit but < > &', async () => {
    await loadForBody({});
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      if ('<>&'.includes(ch)) continue;
      const text = ` a${ch}b ${ch}${ch}c"'\n${ch} `;
      for (const sanitize of sanitizers) {
        expect(safeHtml(text), `U+${c.toString(16)}`).toBe(sanitize(text));
        expect(plainText(text), `U+${c.toString(16)}`).toBe(sanitize(text));
      }
    }
    // Astral characters (surrogate pairs) too.
    for (const text of [' 😀 𝄞 ', '\u{10FFFF}x', '\uD800 lone'])
      expect(safeHtml(text)).toBe(sanitizers[0]!(text));
  });
});

describe('loading the sanitizer', () => {
  it('waits for a body with markup, at any depth, and then sanitizes', async () => {
    await loadForBody({ title: 'Plain', venue: [{ venue: 'Hall', tags: ['a', 1, null] }] });
    expect(() => safeHtml('<b>x</b>')).toThrow(/lazy-parts\.ts loaded the sanitizer/);
    await loadForBody({ title: 'Plain', venue: [{ venue: 'Hall', description: 'A &amp; B' }] });
    expect(safeHtml('<b onclick="x()">x</b><script>y</script>')).toBe('<b>x</b>');
    expect(plainText(' <i>Rock</i> &amp; roll ')).toBe('Rock & roll');
    expect(safeHtml('a > b')).toBe('a &gt; b');
  });
});
