import type sanitizeHtml from 'sanitize-html';
import { EMBED_ATTRIBUTES, EMBED_HOSTS, isAllowedEmbed } from './embeds';

type Sanitize = typeof sanitizeHtml;

/**
 * C0 control characters other than tab, line feed and carriage return: what WordPress's kses removes
 * from every text it filters (wp_kses_no_null). They are not text a person can read or type, and
 * iCalendar and XML cannot carry them.
 */
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

/** `text` without C0 control characters other than tab, line feed and carriage return. */
export const withoutControls = (text: string): string => text.replace(CONTROLS, '');

/**
 * Whether a string is text: every UTF-16 surrogate is paired, so it has a UTF-8 form. A lone one
 * (`"\uD800"` in JSON) names no character and cannot be stored or shown.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const isWellFormed = (text: string): boolean => text.search(LONE_SURROGATE) < 0;

/** `text` with each lone surrogate replaced by U+FFFD (to name a field that holds one). */
export const toWellFormed = (text: string): string => text.replace(LONE_SURROGATE, '\uFFFD');

/**
 * The sanitizer changes text only where it holds `<`, `>` or `&` (a tag, an entity or a bare angle
 * bracket): any other text comes out trimmed and otherwise as it went in (test/unit/text.test.ts checks
 * every UTF-16 code unit). So sanitize-html is loaded only for a body with markup, on its first such
 * request, instead of at every write function's cold start (issue 9): shared/http/lazy-parts.ts loads
 * it before the service runs and hands it over here.
 */
const MARKUP = /[<>&]/;
let loaded: Sanitize | undefined;

/** Whether the sanitizer would change more of `text` than its ends: what makes a body need it. */
export const hasMarkup = (text: string): boolean => MARKUP.test(text);

/** Takes the sanitizer shared/http/lazy-parts.ts loaded. */
export function useSanitizer(sanitize: Sanitize): void {
  loaded = sanitize;
}

function sanitizer(): Sanitize {
  if (!loaded) throw new Error('text with markup before shared/http/lazy-parts.ts loaded the sanitizer');
  return loaded;
}

/** Titles and names are plain text: every tag is removed, entities are decoded once, whitespace trimmed. */
export function plainText(input: string): string {
  if (!MARKUP.test(input)) return input.trim();
  return sanitizer()(input, { allowedTags: [], allowedAttributes: {}, parseStyleAttributes: false })
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();
}

const safeOptions = (s: Sanitize): sanitizeHtml.IOptions => ({
  // Not `main`: a page has one, its own (a description's made a second: issue 43).
  allowedTags: [
    ...s.defaults.allowedTags.filter((t) => t !== 'main'),
    'img',
    'span',
    'del',
    'ins',
    'sub',
    'sup',
  ],
  // No `id` or `name`: stored HTML is shown inside the calendar's own page, where either could take
  // over one of its elements (DOM clobbering: `<img id="filters-toggle">`, issue 43).
  allowedAttributes: {
    a: ['href', 'target', 'rel', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    '*': ['class'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  // No `style` attribute is allowed, so nothing is parsed as CSS: the bundles leave postcss out
  // (infra/bundle/aliases.ts).
  parseStyleAttributes: false,
});
let safe: sanitizeHtml.IOptions | undefined;

/** safeOptions and the video and map embeds of decisions §9 (embeds.ts): iframes from listed sources. */
const withEmbeds = (base: sanitizeHtml.IOptions): sanitizeHtml.IOptions => ({
  ...base,
  allowedTags: [...(base.allowedTags || []), 'iframe'],
  allowedAttributes: { ...base.allowedAttributes, iframe: EMBED_ATTRIBUTES },
  allowedSchemesByTag: { iframe: ['https'] },
  allowedIframeHostnames: EMBED_HOSTS,
  allowIframeRelativeUrls: false,
  // Any other iframe goes, with its content (fallback text is not kept either).
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !isAllowedEmbed(frame.attribs.src),
});
let embedding: sanitizeHtml.IOptions | undefined;

/**
 * Descriptions and excerpts keep safe HTML only: no scripts, event handlers or javascript: URLs.
 * With `embeds` (a description written by an editor or administrator, decisions §9) also the
 * `<iframe>` of a video or map from the sources embeds.ts lists.
 */
export function safeHtml(input: string, o: { embeds?: boolean } = {}): string {
  if (!MARKUP.test(input)) return input.trim();
  const s = sanitizer();
  safe ??= safeOptions(s);
  if (!o.embeds) return s(input, safe).trim();
  embedding ??= withEmbeds(safe);
  return s(input, embedding).trim();
}
