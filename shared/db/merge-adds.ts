import type { PlannedWrite, WriteItem } from './transact';

/**
 * Several events written in one transaction (a series' occurrences) add to the same counters: a
 * venue's counts, a status-total shard. A transaction may name an item only once, so the `ADD`-only
 * updates of one item are summed into one. Their conditions are the same kind (the item exists and is
 * not being deleted); the first one's is kept, or the strictest when they differ.
 */
export function mergeAdds(writes: PlannedWrite[]): PlannedWrite[] {
  const out: PlannedWrite[] = [];
  const byKey = new Map<string, { write: PlannedWrite; adds: Map<string, number> }>();
  for (const w of writes) {
    const adds = addsOf(w.item);
    const u = w.item.Update;
    if (!adds || !u) {
      out.push(w);
      continue;
    }
    const id = `${u.TableName}|${JSON.stringify(u.Key)}`;
    const first = byKey.get(id);
    if (!first) {
      const entry = { write: { ...w }, adds };
      byKey.set(id, entry);
      out.push(entry.write);
      continue;
    }
    for (const [a, n] of adds) first.adds.set(a, (first.adds.get(a) ?? 0) + n);
    first.write.onConflict ??= w.onConflict;
    first.write.item = addItem(
      first.write.item,
      first.adds,
      strictest(first.write.item.Update!.ConditionExpression, u.ConditionExpression),
    );
  }
  // A condition check of an item another write of the transaction names already holds there.
  const named = new Set(byKey.keys());
  return out.filter((w) => {
    const c = w.item.ConditionCheck;
    if (!c) return true;
    const id = `${c.TableName}|${JSON.stringify(c.Key)}`;
    if (named.has(id)) return false;
    named.add(id);
    return true;
  });
}

const strictest = (a?: string, b?: string) => (!a ? b : !b ? a : b.length > a.length ? b : a);

/** The amounts of an `ADD`-only update (`ADD #a0 :d0, #a1 :d1`), by attribute name. */
function addsOf(item: WriteItem): Map<string, number> | undefined {
  const u = item.Update;
  const m = u && /^ADD (.+)$/.exec(u.UpdateExpression ?? '');
  if (!u || !m || /\b(SET|REMOVE|DELETE)\b/.test(m[1]!)) return undefined;
  const adds = new Map<string, number>();
  for (const part of m[1]!.split(',')) {
    const [name, value] = part.trim().split(/\s+/);
    const attr = u.ExpressionAttributeNames?.[name!] ?? name!;
    const n = u.ExpressionAttributeValues?.[value!];
    if (typeof n !== 'number') return undefined;
    adds.set(attr, (adds.get(attr) ?? 0) + n);
  }
  return adds;
}

function addItem(item: WriteItem, adds: Map<string, number>, condition?: string): WriteItem {
  const u = item.Update!;
  const entries = [...adds].filter(([, n]) => n !== 0);
  // An update must set something: a sum of zero still checks its condition with an ADD of 0.
  const list: Array<[string, number]> = entries.length ? entries : [[[...adds.keys()][0]!, 0]];
  return {
    Update: {
      TableName: u.TableName,
      Key: u.Key,
      UpdateExpression: `ADD ${list.map((_, i) => `#m${i} :m${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(list.map(([a], i) => [`#m${i}`, a])),
      ExpressionAttributeValues: Object.fromEntries(list.map(([, n], i) => [`:m${i}`, n])),
      ...(condition ? { ConditionExpression: condition } : {}),
    },
  };
}
