import { invalidParam } from './errors';
import type { TermRecord } from './records';
import { slugKey } from './slugs';

/** Resolves term IDs or slugs against a taxonomy's terms; any unknown one is a 400 naming the parameter. */
export function termIdsOf(param: string, refs: Array<number | string>, terms: TermRecord[]): Set<number> {
  const ids = new Set<number>();
  const unknown: string[] = [];
  for (const ref of refs) {
    const t = terms.find((x) => (typeof ref === 'number' ? x.id === ref : x.slug === slugKey(ref)));
    if (t) ids.add(t.id);
    else unknown.push(String(ref));
  }
  if (unknown.length > 0)
    throw invalidParam(
      param,
      `${param} contains unknown IDs or slugs: ${unknown.join(', ')}.`,
      'rest_unknown_term',
    );
  return ids;
}
