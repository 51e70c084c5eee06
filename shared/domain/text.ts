import sanitizeHtml from 'sanitize-html';

/** Titles and names are plain text: every tag is removed, entities are decoded once, whitespace trimmed. */
export function plainText(input: string): string {
  return sanitizeHtml(input, { allowedTags: [], allowedAttributes: {}, parseStyleAttributes: false })
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();
}

const SAFE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'span', 'del', 'ins', 'sub', 'sup'],
  allowedAttributes: {
    a: ['href', 'name', 'target', 'rel', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    '*': ['class', 'id'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  // No `style` attribute is allowed, so nothing is parsed as CSS: the bundles leave postcss out
  // (infra/bundle/aliases.ts).
  parseStyleAttributes: false,
};

/** Descriptions and excerpts keep safe HTML only: no scripts, event handlers or javascript: URLs. */
export function safeHtml(input: string): string {
  return sanitizeHtml(input, SAFE).trim();
}
