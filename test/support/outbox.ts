import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A mail of the local outbox (`.eml`), its headers and its parts decoded (docs/tickets.md). */
export interface OutboxMail {
  name: string;
  raw: string;
  headers: Record<string, string>;
  parts: Array<{ contentType: string; filename?: string; body: string }>;
}

export async function readOutbox(dir: string): Promise<OutboxMail[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
  return Promise.all(names.map(async (name) => parseMail(name, await readFile(join(dir, name), 'utf8'))));
}

function parseMail(name: string, raw: string): OutboxMail {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const headers = Object.fromEntries(
    head.split('\r\n').map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 2)]),
  );
  const body = rest.join('\r\n\r\n');
  const parts = body
    .split(/\r\n--=_[\w]+(?:--)?\r\n|^--=_[\w]+\r\n/)
    .map((chunk) => chunk.split('\r\n\r\n'))
    .filter(([h, b]) => h && b !== undefined && /Content-Transfer-Encoding: base64/.test(h))
    .map(([h, b]) => ({
      contentType: /Content-Type: ([^;\r\n]+)/.exec(h!)![1]!,
      filename: /filename="([^"]+)"/.exec(h!)?.[1],
      body: Buffer.from(b!.replace(/\r\n/g, '').replace(/--=_\w+--$/, ''), 'base64').toString('utf8'),
    }));
  return { name, raw, headers, parts };
}
