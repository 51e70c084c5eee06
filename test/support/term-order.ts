/**
 * The order term lists sort by name (an English collator, case and accents ignored, numbers by value,
 * ties by ID): what the full read does, for tests that check the indexed lists against it.
 */
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

type Term = Record<string, any>;

export const byName = (a: Term, b: Term) =>
  collator.compare(String(a.name), String(b.name)) || Number(a.id) - Number(b.id);
