/**
 * What the service's sanitizer took out of an imported description, for the report: the elements the
 * source sent that the stored text no longer has, by name and count ("iframe removed", "2 script removed").
 */
const elements = (html: string): Map<string, number> => {
  const out = new Map<string, number>();
  for (const [, name] of html.matchAll(/<([a-z][a-z0-9-]*)\b/gi)) {
    const key = name!.toLowerCase();
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
};

export function removedMarkup(sent: string, stored: string): string[] {
  if (sent === stored || !sent.includes('<')) return [];
  const kept = elements(stored);
  const removed: string[] = [];
  for (const [name, count] of elements(sent)) {
    const lost = count - (kept.get(name) ?? 0);
    if (lost > 0) removed.push(`${lost > 1 ? `${lost} ` : ''}${name} removed`);
  }
  return removed;
}
