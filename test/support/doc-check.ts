import { responseValidatorFor, templateFor } from '../../shared/docs/response-check';

const checkers = new Map<string, Promise<{ doc: object; check: ReturnType<typeof responseValidatorFor> }>>();

/** Fails the test when a response does not match what the served /doc says about it. */
export async function checkAgainstDoc(
  base: string,
  method: string,
  path: string,
  reply: { status: number; headers: Headers; body: unknown },
): Promise<void> {
  let entry = checkers.get(base);
  if (!entry) {
    entry = fetch(`${base}/doc`)
      .then((r) => r.json() as Promise<object>)
      .then((doc) => ({ doc, check: responseValidatorFor(doc) }));
    checkers.set(base, entry);
  }
  const { doc, check } = await entry;
  // Unknown routes, wrong methods and trailing-slash redirects come from the $default route, not a documented one.
  const code = (reply.body as { code?: string } | undefined)?.code;
  if (reply.status === 308 || code === 'rest_no_route') return;
  const template = templateFor(doc, path);
  if (!template) throw new Error(`${method} ${path} answered ${reply.status} but /doc has no such path`);
  const headers: Record<string, string> = {};
  reply.headers.forEach((v, k) => {
    headers[k] = v;
  });
  const problems = check(method, template, reply.status, reply.body, headers);
  if (problems.length > 0)
    throw new Error(`${method} ${path} → ${reply.status} does not match /doc:\n  ${problems.join('\n  ')}`);
}
