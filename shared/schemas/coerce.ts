/**
 * Coerces the string values of query strings and form bodies to the types a JSON Schema declares.
 * WordPress clients send arrays as CSV and booleans as "1"/"0"/"true"/"false"; this is the one place
 * that understands those spellings. It never rejects: validation does that afterwards.
 */

/** A parameter or body schema reduced to what coercion reads: type, items, properties. */
export interface Shape {
  readonly type?: string | readonly string[];
  readonly items?: Shape;
  readonly properties?: Readonly<Record<string, Shape>>;
}

/** The part of a JSON Schema that coercion reads (type, items, properties), for the compiled modules. */
export function shapeOf(anySchema: unknown): Shape {
  const schema = anySchema as Shape;
  const shape: { -readonly [K in keyof Shape]: Shape[K] } = {};
  if (schema.type !== undefined) shape.type = schema.type;
  if (schema.items !== undefined) shape.items = shapeOf(schema.items);
  if (schema.properties !== undefined)
    shape.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [name, shapeOf(property)]),
    );
  return shape;
}

const typesOf = (schema: Shape): readonly string[] =>
  schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type;

function coerceScalar(value: unknown, types: readonly string[]): unknown {
  if (typeof value !== 'string') {
    if (
      typeof value === 'number' &&
      types.includes('boolean') &&
      !types.includes('number') &&
      (value === 0 || value === 1)
    )
      return value === 1;
    return value;
  }
  const v = value.trim();
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+$/.test(v)) return Number(v);
  if (types.includes('number') && /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v)) return Number(v);
  if (types.includes('boolean')) {
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
  }
  if (types.includes('null') && v === '' && !types.includes('string')) return null;
  return value;
}

/** Coerces `value` towards `schema` without ever rejecting: ajv does the rejecting afterwards. */
export function coerce(anySchema: unknown, value: unknown): unknown {
  const schema = anySchema as Shape | undefined;
  if (!schema || value === undefined || value === null) return value;
  const types = typesOf(schema);
  if (
    types.includes('array') &&
    !Array.isArray(value) &&
    !(types.includes('object') && typeof value === 'object')
  ) {
    if (typeof value === 'string') {
      if (types.includes('string')) return value;
      const parts = value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      return parts.map((p) => coerce(schema.items, p));
    }
    if (typeof value === 'number') return [coerce(schema.items, value)];
  }
  if (Array.isArray(value)) return schema.items ? value.map((v) => coerce(schema.items, v)) : value;
  if (typeof value === 'object' && schema.properties)
    return coerceObject(schema, value as Record<string, unknown>);
  return coerceScalar(value, types);
}

export function coerceObject(anySchema: unknown, obj: Record<string, unknown>): Record<string, unknown> {
  const schema = anySchema as Shape;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) out[key] = coerce(schema.properties?.[key], value);
  return out;
}
