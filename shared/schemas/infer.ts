/**
 * TypeScript types derived from the contracts' `as const` JSON Schemas, so schemas stay the single
 * source. Deliberately small: it covers the keywords the contracts use.
 */
type Scalar<T> = T extends 'integer' | 'number'
  ? number
  : T extends 'string'
    ? string
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'object'
          ? Record<string, unknown>
          : T extends 'array'
            ? unknown[]
            : unknown;

export type Infer<S> = S extends { readonly type: 'object'; readonly properties: infer P }
  ? InferObject<P, S extends { readonly required: readonly (infer R)[] } ? R : never>
  : S extends { readonly type: 'array'; readonly items: infer I }
    ? Infer<I>[]
    : S extends { readonly enum: readonly (infer E)[] }
      ? E
      : S extends { readonly type: readonly (infer T)[] }
        ? Multi<T, S>
        : S extends { readonly type: infer T }
          ? Scalar<T>
          : unknown;

/** One of several declared types; arrays keep their item type. */
type Multi<T, S> = T extends 'array'
  ? S extends { readonly items: infer I }
    ? Infer<I>[]
    : unknown[]
  : Scalar<T>;

type InferObject<P, R> = { -readonly [K in keyof P as K extends R ? K : never]: Infer<P[K]> } & {
  -readonly [K in keyof P as K extends R ? never : K]?: Infer<P[K]>;
};
