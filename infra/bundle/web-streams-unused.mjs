// Stands in for `node:stream/web` in the function bundles (infra/bundle/aliases.ts). Its one importer,
// @middy/core, uses ReadableStream only in `body instanceof ReadableStream` when it streams a response,
// which no function here does; Node builds its whole web-streams implementation when that module is
// imported, about 3 ms of every function's cold start. The global ReadableStream is the same class,
// and Node loads it only when it is first touched: here, at such an `instanceof`.
export const ReadableStream = {
  [Symbol.hasInstance]: (value) => value instanceof globalThis.ReadableStream,
};
