/**
 * Event cost (reference §3.6, decisions §9): every number found in the cost strings, sorted, and a
 * display string from the lowest to the highest, zero shown as "Free", each amount as it was written
 * (`$1,000`, `$12,50`) with the currency symbol before or after it. The currency is the one written next
 * to the amounts (`£8.50`, `CHF 20`, `15 €`); nothing is turned into `$` (that is only the default for a
 * cost that names no currency).
 */
export interface StoredCost {
  /** The cost strings as sent. */
  raw: string[];
  symbol: string;
  position: '' | 'prefix' | 'postfix';
  code: string;
}

const NUMBER = /\d+(?:[.,]\d{3})*(?:[.,]\d+)?/g;
/**
 * What may stand for a currency next to an amount: a currency sign with at most two letters before it
 * (`$`, `€`, `R$`, `US$`), an upper-case code (`CHF`, `USD`), or `kr`. Words (`Adults 10`, `10 to 20`)
 * are not currencies.
 */
const CURRENCY = String.raw`(?:\p{L}{0,2}\p{Sc}|\p{Lu}{2,3}|[kK]r)`;
/** An amount with what is written right before and after it (one space allowed on each side). */
const AMOUNT = new RegExp(
  String.raw`(?<![\p{L}\p{Sc}])(?:(${CURRENCY}) ?)?(\d+(?:[.,]\d{3})*(?:[.,]\d+)?)(?: ?(${CURRENCY})(?![\p{L}\p{Sc}]))?`,
  'gu',
);

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

const IS_NUMBER = /^\d+(\.\d+)?$/;

/**
 * The currency written next to the amounts: the same symbol on the same side of every amount that
 * has one (`["$5","$10"]`, `€6.50 - €8.50`, `Free, 20$`), else none, as the reference when the amounts
 * disagree (`["20¥","30$"]`).
 */
export function inferCurrency(raw: string[]): Pick<StoredCost, 'symbol' | 'position'> {
  const seen = new Set<string>();
  for (const r of raw)
    for (const m of r.matchAll(AMOUNT)) {
      if (m[1]) seen.add(`prefix ${m[1]}`);
      else if (m[3]) seen.add(`postfix ${m[3]}`);
    }
  if (seen.size !== 1) return { symbol: '', position: '' };
  const [position, symbol] = [...seen][0]!.split(' ') as ['prefix' | 'postfix', string];
  return { symbol, position };
}

/** Reads a cost input: a string, a number, or an array of them; infers the currency written with it. */
export function parseCostInput(input: unknown): StoredCost {
  const raw = (Array.isArray(input) ? input : input === undefined || input === null ? [] : [input])
    .map((v) => String(v).trim())
    .filter((v) => v !== '');
  return { raw, ...inferCurrency(raw), code: '' };
}

/**
 * The currency to show: the stored one, or, for a record written before the currency was read from
 * before the amount (it kept none), the one its strings carry.
 */
export function costCurrency(cost: StoredCost): Pick<StoredCost, 'symbol' | 'position'> {
  return cost.symbol ? { symbol: cost.symbol, position: cost.position } : inferCurrency(cost.raw);
}

/** Every amount as written and as a number (`"1,000"` and `"1000"`), in the order found. */
function amounts(cost: StoredCost): Array<{ written: string; value: string }> {
  const found: Array<{ written: string; value: string }> = [];
  for (const r of cost.raw)
    for (const m of r.match(NUMBER) ?? []) found.push({ written: m, value: normalise(m) });
  return found;
}

export function costValues(cost: StoredCost): string[] {
  const values: string[] = [];
  for (const r of cost.raw) {
    const found = r.match(NUMBER);
    if (found) values.push(...found.map(normalise));
    else values.push(r);
  }
  const numeric = values.filter((v) => IS_NUMBER.test(v));
  const other = values.filter((v) => !IS_NUMBER.test(v));
  numeric.sort((a, b) => Number(a) - Number(b));
  return [...new Set([...numeric, ...other])];
}

/** The display string, e.g. "$10 – $25.50", "Free – 30$", "£8.50", "CHF20", "$1,000", "Donation". */
export function costDisplay(cost: StoredCost, defaultSymbol = '$'): string {
  const found = amounts(cost);
  if (found.length === 0) return cost.raw.join(', ');
  const { symbol, position } = costCurrency(cost);
  const show = (a: { written: string; value: string }) => {
    if (Number(a.value) === 0) return 'Free';
    return position === 'postfix' ? `${a.written}${symbol}` : `${symbol || defaultSymbol}${a.written}`;
  };
  // The first amount written of the lowest and of the highest value.
  const byValue = [...found].sort((a, b) => Number(a.value) - Number(b.value));
  const min = byValue[0]!;
  const max = byValue.find((a) => Number(a.value) === Number(byValue[byValue.length - 1]!.value))!;
  return Number(min.value) === Number(max.value) ? show(min) : `${show(min)} – ${show(max)}`;
}

/**
 * The cost to send back in a write, from a read (an export, a copy of another site): the display
 * without the default "$" the display puts before the amounts of a cost that names no currency
 * (`$5 – $10` → `5 – 10`), so that the copy does not name a currency the original did not.
 */
export function costToWrite(display: string, currencySymbol: string | undefined): string {
  return currencySymbol ? display : display.replace(/\$(?=\d)/g, '');
}
