/**
 * The requests the code under test sends to an API while recorded, as `METHOD /path?query` below
 * `base`: the global fetch wrapped (the typed client looks it up at each call), until `stop()`.
 */
export function recordRequests(base: string): { sent: string[]; stop(): void } {
  const sent: string[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = String(input);
    if (url.startsWith(base)) sent.push(`${init?.method ?? 'GET'} ${url.slice(base.length)}`);
    return original(input, init);
  };
  return { sent, stop: () => void (globalThis.fetch = original) };
}
