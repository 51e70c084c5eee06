import { decodeHTML } from 'entities';

/**
 * The records already at the target, read once and only when the state file does not know a record
 * (a first run into a calendar that has data, or a lost state file), so that nothing is made twice:
 * looked up by slug (encoded or not: a site sends `%e9%9f%b3%e6%a5%bd`) and by name, each target
 * record claimed at most once.
 */
export interface TargetIndex<R> {
  /** The first unclaimed record that `match` accepts among those of this slug, then of this name. */
  find(slug: string, name: string, match?: (r: R) => boolean): R | undefined;
}

const slugKey = (slug: string) => {
  try {
    return decodeURIComponent(slug).toLowerCase();
  } catch {
    return slug.toLowerCase();
  }
};
const nameKey = (name: string) => decodeHTML(name).trim().toLowerCase();

export function targetIndex<R extends { id: number }>(
  load: () => AsyncIterable<R>,
  slugOf: (r: R) => string,
  nameOf: (r: R) => string,
): () => Promise<TargetIndex<R>> {
  let ready: Promise<TargetIndex<R>> | undefined;
  const build = async (): Promise<TargetIndex<R>> => {
    const bySlug = new Map<string, R[]>();
    const byName = new Map<string, R[]>();
    const claimed = new Set<number>();
    const add = (m: Map<string, R[]>, k: string, r: R) => {
      if (k) (m.get(k) ?? m.set(k, []).get(k)!).push(r);
    };
    for await (const r of load()) {
      add(bySlug, slugKey(slugOf(r)), r);
      add(byName, nameKey(nameOf(r)), r);
    }
    return {
      find(slug, name, match = () => true) {
        const pick = (list: R[] | undefined) => list?.find((r) => !claimed.has(r.id) && match(r));
        const found = (slug ? pick(bySlug.get(slugKey(slug))) : undefined) ?? pick(byName.get(nameKey(name)));
        if (found) claimed.add(found.id);
        return found;
      },
    };
  };
  return () => (ready ??= build());
}
