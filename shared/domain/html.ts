/**
 * The plain text of HTML this service stored: descriptions and excerpts pass the allow-list sanitizer
 * on write (domain/text.ts), which leaves no scripts, comments or raw `<`, `&`, `>`, `"` in text. For
 * such HTML, removing the tags and decoding those four entities gives exactly what the sanitizer's
 * plain-text mode gives, without loading it: reads never carry the sanitizer.
 */
export function storedHtmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** The image object of responses: `{url, id: null, extension}` (decisions §4). */
export const imageView = (url: string) => ({ url, id: null, extension: extensionOf(url) });

/** Extension of the URL's last path segment (`https://x.example/a.PNG?s=1` → `png`), else "". */
function extensionOf(url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {}
  return (/\.([a-z0-9]+)$/i.exec(path.slice(path.lastIndexOf('/') + 1))?.[1] ?? '').toLowerCase();
}
