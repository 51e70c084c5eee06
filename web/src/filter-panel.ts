import { listAll } from './api';
import { syncUrl } from './address';
import { setCategories } from './colours';
import { el } from './detail';
import { categoryTree, type Filters, NO_FILTERS, type PageState } from './filters';
import { $, type PageContext } from './page-dom';
import { renderSubscribe } from './subscribe';

/**
 * The filters: their options from the API (the editor's lists too), their values to and from the
 * state. A change applies at once (the search box on Enter / Apply) and becomes an entry of the history.
 */
function fill(id: string, options: Array<{ value: string; label: string }>, keepFirst = true): void {
  const sel = $<HTMLSelectElement>(id);
  const first = keepFirst ? sel.options[0] : undefined;
  sel.replaceChildren(
    ...(first ? [first] : []),
    ...options.map((o) => el('option', { value: o.value }, o.label)),
  );
}

const field = (name: string) => $<HTMLFormElement>('filters').elements.namedItem(name) as HTMLInputElement;

/**
 * The filters as the state has them: the form (what was typed and not applied is dropped) and the
 * subscribe menu's feed (subscribe.ts).
 */
export function renderFilters(s: PageState): void {
  for (const k of ['search', 'category', 'tag', 'venue', 'organizer'] as const) field(k).value = s[k];
  field('featured').checked = s.featured;
  field('trash').checked = s.trash;
  $('f-series').hidden = !s.series;
  renderSubscribe(s);
}

function readFilterForm(): Omit<Filters, 'series'> {
  return {
    search: field('search').value,
    category: field('category').value,
    tag: field('tag').value,
    venue: field('venue').value,
    organizer: field('organizer').value,
    featured: field('featured').checked,
    trash: field('trash').checked,
  };
}

/** The filters' and the editor's options: categories (in tree order), tags, venues and organizers. */
export async function loadOptions(ctx: PageContext): Promise<void> {
  const [cats, tags, venues, organizers] = await Promise.all([
    listAll('listCategories', { query: { per_page: 50, hide_empty: false } }),
    listAll('listTags', { query: { per_page: 50, hide_empty: false } }),
    listAll('listVenues', { query: { per_page: 50 } }).catch(() => []),
    listAll('listOrganizers', { query: { per_page: 50 } }).catch(() => []),
  ]);
  const tree = categoryTree(cats);
  setCategories(tree.map(({ term }) => term));
  const indent = (d: number) => '\u2003'.repeat(d) + (d ? '↳ ' : '');
  fill(
    'f-category',
    tree.map(({ term, depth }) => ({ value: term.slug, label: `${indent(depth)}${term.name}` })),
  );
  fill(
    'f-tag',
    tags.map((t) => ({ value: t.slug, label: t.name })),
  );
  fill(
    'f-venue',
    venues.map((v) => ({ value: String(v.id), label: v.venue })),
  );
  fill(
    'f-organizer',
    organizers.map((o) => ({ value: String(o.id), label: o.organizer })),
  );
  fill(
    'e-categories',
    tree.map(({ term, depth }) => ({ value: String(term.id), label: `${indent(depth)}${term.name}` })),
    false,
  );
  fill(
    'e-tags',
    tags.map((t) => ({ value: String(t.id), label: t.name })),
    false,
  );
  fill(
    'e-venue',
    venues.map((v) => ({ value: String(v.id), label: v.venue })),
  );
  fill(
    'e-organizer',
    organizers.map((o) => ({ value: String(o.id), label: o.organizer })),
    false,
  );
  renderFilters(ctx.page.get());
}

export function setUpFilters(ctx: PageContext): void {
  const form = $<HTMLFormElement>('filters');
  const apply = () => {
    ctx.page.update(readFilterForm());
    syncUrl(ctx, true);
    ctx.calendar().refetchEvents();
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    apply();
  });
  // Selects and boxes apply at once; the search box on Enter / Apply.
  form.addEventListener('change', (ev) => {
    if ((ev.target as HTMLElement).id !== 'f-search') apply();
  });
  $('f-clear').addEventListener('click', () => {
    ctx.page.update(NO_FILTERS);
    renderFilters(ctx.page.get());
    syncUrl(ctx, true);
    ctx.calendar().refetchEvents();
  });
}
