import type { CalEvent, Term } from './api-types';

/**
 * A colour per category (issue 29): each top-level category has one of the palette's, and its children
 * share it (Jazz is drawn as Music is). Each keeps 4.5:1 contrast with white text; events without a
 * category keep the page's accent. A legend names the colours of the events in view (legend.ts).
 */
const PALETTE = ['#a3262a', '#2b6a2f', '#6a3d9a', '#8a4b00', '#00667a', '#a0266b', '#5c5300', '#555555'];
export const NO_CATEGORY = '#1d4f91';

let roots = new Map<number, { colour: string; name: string }>();
let rootOf = new Map<number, number>();
let ready!: () => void;
/** Settled once the categories are known (or could not be read): events wait for it to be coloured. */
export const coloursReady = new Promise<void>((resolve) => (ready = resolve));

/** The categories in tree order (the filter's list): top-level ones take the palette's colours in turn. */
export function setCategories(terms: Term[]): void {
  const byId = new Map(terms.map((t) => [t.id, t]));
  roots = new Map();
  rootOf = new Map();
  for (const t of terms) {
    let root = t;
    for (let depth = 0; depth < 8 && root.parent && byId.has(root.parent); depth++)
      root = byId.get(root.parent)!;
    rootOf.set(t.id, root.id);
    if (!roots.has(root.id))
      roots.set(root.id, { colour: PALETTE[roots.size % PALETTE.length]!, name: root.name });
  }
  ready();
}

/** The colour of an event (its first category's) and the category the legend names for it. */
export function colourOf(e: CalEvent): { colour: string; category: string } {
  const first = e.categories?.[0];
  const root = first ? roots.get(rootOf.get(first.id) ?? first.id) : undefined;
  return root ? { colour: root.colour, category: root.name } : { colour: NO_CATEGORY, category: '' };
}
