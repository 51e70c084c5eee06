/**
 * Event cost (reference §3.6): every number found in the cost strings, sorted, and a display string
 * from the lowest to the highest, zero shown as "Free", with the currency symbol before or after.
 */
export interface StoredCost {
  /** The cost strings as sent. */
  raw: string[];
  symbol: string;
  position: '' | 'prefix' | 'postfix';
  code: string;
}

const NUMBER = /\d+(?:[.,]\d{3})*(?:[.,]\d+)?/g;

/** "25,55" → "25.55"; "1,000.50" and "1.000,50" → "1000.50"; "1,000" → "1000". */
function normalise(n: string): string {
  const hasDot = n.includes('.');
  const hasComma = n.includes(',');
  if (hasDot && hasComma) {
    const decimal = n.lastIndexOf('.') > n.lastIndexOf(',') ? '.' : ',';
    return n
      .split(decimal === '.' ? ',' : '.')
      .join('')
      .replace(decimal, '.');
  }
  if (!hasComma) return n;
  const parts = n.split(',');
  return parts.length === 2 && parts[1]!.length !== 3 ? parts.join('.') : parts.join('');
}

/** Reads a cost input: a string, a number, or an array of them; infers a trailing currency symbol. */
export function parseCostInput(input: unknown): StoredCost {
  const raw = (Array.isArray(input) ? input : input === undefined || input === null ? [] : [input])
    .map((v) => String(v).trim())
    .filter((v) => v !== '');
  const postfix = raw.map((r) => /^\s*[\d.,]+\s*([^\d\s.,-]+)\s*$/.exec(r)?.[1]).find(Boolean);
  return { raw, symbol: postfix ?? '', position: postfix ? 'postfix' : '', code: '' };
}

export function costValues(cost: StoredCost): string[] {
  const values: string[] = [];
  for (const r of cost.raw) {
    const found = r.match(NUMBER);
    if (found) values.push(...found.map(normalise));
    else values.push(r);
  }
  const numeric = values.filter((v) => /^\d+(\.\d+)?$/.test(v));
  const other = values.filter((v) => !/^\d+(\.\d+)?$/.test(v));
  numeric.sort((a, b) => Number(a) - Number(b));
  return [...new Set([...numeric, ...other])];
}

/** The display string, e.g. "$10 – $25.50", "Free – 30$", "Donation". */
export function costDisplay(cost: StoredCost, defaultSymbol = '$'): string {
  const values = costValues(cost);
  const numeric = values.filter((v) => /^\d+(\.\d+)?$/.test(v));
  if (numeric.length === 0) return cost.raw.join(', ');
  const symbol = cost.symbol || defaultSymbol;
  const show = (v: string) => {
    if (Number(v) === 0) return 'Free';
    return cost.position === 'postfix' ? `${v}${symbol}` : `${symbol}${v}`;
  };
  const min = numeric[0]!;
  const max = numeric[numeric.length - 1]!;
  return min === max || Number(min) === Number(max) ? show(min) : `${show(min)} – ${show(max)}`;
}
