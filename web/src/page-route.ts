/**
 * The page's addresses besides `/`: the public pages the API's `url` fields name (issue 29). The server
 * renders them (functions/pages) into this page's HTML, and the app starts on them:
 *   /event/<slug>/              the calendar with that event open
 *   /events/category/<path>/    the calendar filtered by the category (the last slug of the path)
 *   /tag/<slug>/                the calendar filtered by the tag
 * Venue and organizer pages show the calendar below their own content, unfiltered.
 */
export interface ArchiveFilter {
  category?: string;
  tag?: string;
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return '';
  }
};

/** The filter a category's or tag's address applies. */
export function archiveFilter(pathname = location.pathname): ArchiveFilter {
  const category = /^\/events\/category\/(?:[^/]+\/)*([^/]+)\/?$/.exec(pathname);
  if (category) return { category: decode(category[1]!) };
  const tag = /^\/tag\/([^/]+)\/?$/.exec(pathname);
  return tag ? { tag: decode(tag[1]!) } : {};
}

/** The slug of the event an address names (`/event/<slug>/`), or null. */
export function eventSlugOf(pathname = location.pathname): string | null {
  const m = /^\/event\/([^/]+)\/?$/.exec(pathname);
  return m ? decode(m[1]!) || null : null;
}

/**
 * The path of the calendar's own address for a state: a category's or tag's page while its filter is
 * the one applied (the query then leaves it out), else `/`.
 */
export function calendarPath(state: { category: string; tag: string }, pathname = location.pathname) {
  const archive = archiveFilter(pathname);
  if (archive.category && archive.category === state.category && !state.tag)
    return { path: pathname, omit: 'category' as const };
  if (archive.tag && archive.tag === state.tag && !state.category)
    return { path: pathname, omit: 'tag' as const };
  // A venue's or organizer's page keeps its address: the calendar shows below its own content.
  if (/^\/(venue|organizer)\/[^/]+\/?$/.test(pathname)) return { path: pathname, omit: undefined };
  return { path: '/', omit: undefined };
}
