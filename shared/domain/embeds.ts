/**
 * Description embeds (decisions §9): from editors and administrators, `description` keeps `<iframe>`
 * whose `src` is https on YouTube, Vimeo's player or Google Maps' embed, with these attributes only
 * (WordPress keeps unfiltered HTML for those roles; a real site's events carry video embeds). Public
 * pages render each one sandboxed.
 */
export const EMBED_ATTRIBUTES = ['src', 'width', 'height', 'title', 'allow', 'allowfullscreen', 'loading'];

/** The hosts an embed may come from, and the paths on them that serve embeds. */
const EMBED_SOURCES: Array<{ hosts: string[]; path: RegExp }> = [
  {
    hosts: ['youtube.com', 'www.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com'],
    path: /^\/embed\//,
  },
  { hosts: ['player.vimeo.com'], path: /^\/video\// },
  { hosts: ['www.google.com'], path: /^\/maps\/embed(\/|$)/ },
];

export const EMBED_HOSTS = EMBED_SOURCES.flatMap((s) => s.hosts);

/** Whether an `<iframe>`'s `src` is one decisions §9 allows: https, a listed host, its embed path. */
export function isAllowedEmbed(src: string | undefined): boolean {
  if (!src) return false;
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return false;
  return EMBED_SOURCES.some((s) => s.hosts.includes(url.hostname) && s.path.test(url.pathname));
}

/**
 * The sandbox every embed is rendered in: its player may run its own scripts in its own origin (video
 * players need both), nothing more: no top navigation, no forms, no pop-ups.
 */
export const EMBED_SANDBOX = 'allow-scripts allow-same-origin';

/**
 * Stored description HTML as a page shows it: each `<iframe>` sandboxed. The HTML was sanitized on
 * write, so an iframe in it carries only EMBED_ATTRIBUTES (never its own `sandbox`).
 */
export const sandboxEmbeds = (html: string): string =>
  html.replace(/<iframe\b/gi, () => `<iframe sandbox="${EMBED_SANDBOX}"`);
