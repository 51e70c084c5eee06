/**
 * Plain text of an event description for iCalendar's DESCRIPTION. Descriptions are stored as safe HTML
 * (the allow-list sanitizer runs on write), so there are no scripts, comments or raw `<`, `>`, `&`, `"`
 * in their text: line breaks and block ends become newlines, list items start with "- ", the other tags
 * go, the sanitizer's entities are decoded once, and runs of blank lines shrink to one.
 */
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' };

const BLOCKS = 'p|div|h[1-6]|blockquote|pre|ul|ol|dl|table|section|article|header|footer|figure|address';

export function descriptionText(html: string): string {
  return html
    .replace(/\r\n?/g, '\n')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '- ')
    .replace(/<\/(li|tr|dt|dd|figcaption)>/gi, '\n')
    .replace(new RegExp(`</(${BLOCKS})>`, 'gi'), '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(lt|gt|quot|#39|amp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * iCalendar parameter values (`CN=`) cannot hold a double quote and have no escapes (the generator's
 * backslashes would be read literally; RFC 6868's are not widely read): double quotes become
 * apostrophes, backslashes slashes, control characters spaces.
 */
export const paramText = (value: string) =>
  value
    .replace(/"/g, "'")
    .replace(/\\/g, '/')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim();

/**
 * Content lines without the control characters RFC 5545 allows in no value (CONTROL, §3.1): only tab
 * stays, and the CR LF of line ends, which the generator writes itself (it escapes those in values).
 * Text stored before bodies lost their controls (http/body.ts) cannot reach a calendar raw either.
 */
export const withoutIcalControls = (text: string) =>
  text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '');

/** Octets of one code point in UTF-8. */
const octets = (cp: number) => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

/**
 * Folds content lines (CRLF-separated) at 75 octets, RFC 5545 §3.1: a continuation line starts with a
 * space, which counts; a character (code point) is never split across lines.
 */
export function foldContentLines(text: string): string {
  return text
    .split('\r\n')
    .map((line) => {
      if (line.length <= 75 && !/[^\x00-\x7f]/.test(line)) return line;
      const parts: string[] = [];
      let current = '';
      let size = 0;
      for (const ch of line) {
        const n = octets(ch.codePointAt(0)!);
        if (size + n > 75) {
          parts.push(current);
          current = ' ';
          size = 1;
        }
        current += ch;
        size += n;
      }
      parts.push(current);
      return parts.join('\r\n');
    })
    .join('\r\n');
}
