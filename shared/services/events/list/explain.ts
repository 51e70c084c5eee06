import type { Driver, EventListPlan, ScopePlan } from './plan';

/**
 * An event-list plan in words: what `npm run plan -- "<query>"` prints and what the list table of
 * docs/data-model.md holds (generated from these functions; test/unit/data-model-doc.test.ts holds
 * the document to them).
 */

const ref = (r: number | string) => (typeof r === 'number' ? `#${r}` : r);

/** A tally scope as the plan names it: a category counts as its subtree unless it is a leaf. */
export function scopeText(s: ScopePlan): string {
  switch (s.of) {
    case 'all':
      return 'every event';
    case 'featured':
      return 'featured events';
    case 'ticketed':
      return 'ticketed events';
    case 'category':
      return `category ${ref(s.ref)}`;
    case 'tag':
      return `tag ${ref(s.ref)}`;
    case 'venue':
    case 'organizer':
      return `${s.of} ${s.id}`;
    case 'category+venue':
      return `category ${ref(s.category)} at venue ${s.venue}`;
  }
}

/** The index each driver reads its candidates from. */
const SOURCES: Record<Driver, (plan: EventListPlan) => string> = {
  ids: () => 'the records by key (BatchGetItem)',
  search: () => 'byAssignment: the search words, one Query per word; then the records by key',
  links: () => 'byAssignment: the link rows of the smallest filter, each target in the window',
  window: (p) =>
    p.featured === true
      ? 'byAssignment: the featured partition over the window'
      : 'byStart: every event in the window',
  tally: (p) =>
    p.filters.length === 0
      ? p.featured === true
        ? 'byAssignment: the featured partition, from the page'
        : p.ticketed === false
          ? 'byStart: the event partition, from the page, ticketed rows skipped'
          : 'byStart: the event partition, from the page'
      : p.filters.length === 1
        ? p.filters[0]!.param === 'ticketed'
          ? 'byAssignment: the ticketed events’ rows, from the page'
          : 'byAssignment: the filter’s link rows, from the page'
        : 'byAssignment: the link rows of the smaller filter, from the page',
};

export const sourceText = (plan: EventListPlan) => SOURCES[plan.driver](plan);

/** The tallies read; `ticketed=false` counts the first less the second, day by day. */
export const talliesText = (plan: EventListPlan) =>
  plan.tallies.length === 0
    ? '-'
    : plan.driver === 'tally' && plan.ticketed === false
      ? plan.tallies.map(scopeText).join(' less ')
      : plan.tallies.map(scopeText).join('; ');

export const pageStartText = (plan: EventListPlan) =>
  plan.pageStart === 'tallies' ? 'day counts of the tallies' : 'every candidate, sorted';

/** The plan as lines of text. */
export function explainPlan(plan: EventListPlan): string[] {
  const filters = plan.filters.map((f) =>
    f.param === 'ticketed'
      ? 'ticketed'
      : `${f.param} ${f.refs.map((r) => (f.param === 'venue' || f.param === 'organizer' || f.param === 'series' ? r : ref(r))).join(' or ')}`,
  );
  return [
    `driver:     ${plan.driver}`,
    `reads:      ${sourceText(plan)}`,
    `filters:    ${filters.length > 0 ? filters.join(' and ') : '-'}`,
    `window:     ${plan.window === 'none' ? 'none (include ignores dates)' : plan.window === 'days' ? 'whole days' : 'strict times'}`,
    `statuses:   ${plan.statuses.statuses.join(', ')}${plan.statuses.ownerOfUnpublished ? ` (unpublished: ${plan.statuses.ownerOfUnpublished}'s only)` : ''}`,
    `tallies:    ${talliesText(plan)}${plan.who ? ` (audience ${plan.who === 'p' ? 'published' : 'every listable status'})` : ''}`,
    ...(plan.staleFlag !== undefined
      ? [`stale flag: category ${ref(plan.staleFlag)}'s subtree; when set the links driver serves`]
      : []),
    ...(plan.early ? ['early:      page 1 rows of the likely driving filter read with the tallies'] : []),
    `page:       ${plan.page.page} of ${plan.page.perPage}, start from ${pageStartText(plan)}`,
    `checks:     ${plan.checks.length > 0 ? plan.checks.join(', ') : '-'}`,
    `refine:     ${plan.refine.length > 0 ? plan.refine.join(', ') : '-'}`,
  ];
}

/** Queries that show every driver and every tally scope; the table of docs/data-model.md lists them. */
export const EXAMPLE_QUERIES = [
  '',
  'page=40',
  'featured=true',
  'categories=jazz',
  'tags=outdoor',
  'venue=4',
  'organizer=5',
  'categories=jazz&venue=4',
  'categories=jazz&tags=outdoor',
  'categories=jazz,rock',
  'start_date=2031-03-01&end_date=2031-03-07',
  'strict_dates=true',
  'featured=false',
  'search=jazz',
  'search=x',
  'include=7,8',
  'post_parent=7',
  'ticketed=true',
  'ticketed=false',
  'categories=jazz&ticketed=true',
  'geoloc=true',
];

/** One Markdown row per query: its plan for an anonymous caller. */
export function planTable(rows: Array<{ query: string; plan: EventListPlan }>): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [
    '| Query | Driver | Candidates from | Tallies read | Page start |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(({ query, plan }) =>
      [
        query ? `\`${query}\`` : '(none)',
        plan.driver,
        sourceText(plan),
        talliesText(plan),
        pageStartText(plan),
      ]
        .map(cell)
        .join(' | ')
        .replace(/^/, '| ')
        .concat(' |'),
    ),
  ].join('\n');
}
