import { readFileSync } from 'node:fs';
import type { ApiClient } from './api-client';
import { ImportError } from './site-source';

/**
 * `npm run import -- ics <url or file>`: one POST /imports of the target API (docs/import-export.md),
 * the feed's URL (the service fetches it, and re-syncs it with --resync) or the file's text, then the
 * run's report. The import itself is the service's: the same rules as through the API.
 */

export interface IcsOptions {
  categories?: string;
  status?: string;
  resync?: string;
}

interface Report {
  created: number;
  updated: number;
  unchanged: number;
  trashed: number;
  skipped: Array<{ reason: string }>;
}

export async function importIcs(from: string, api: ApiClient, o: IcsOptions): Promise<void> {
  const isUrl = /^https?:\/\//i.test(from);
  const categories = (o.categories ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const resync = o.resync === undefined ? undefined : Number(o.resync);
  if (resync !== undefined && !(Number.isInteger(resync) && resync >= 5))
    throw new ImportError('--resync takes whole minutes, 5 or more.');
  if (resync !== undefined && !isUrl) throw new ImportError('--resync needs a feed URL, not a file.');
  let text: string | undefined;
  if (!isUrl)
    try {
      text = readFileSync(from, 'utf8');
    } catch (e) {
      throw new ImportError(
        `Cannot read ${from} (${(e as Error).message}): give an .ics file or an http(s) URL.`,
      );
    }
  process.stderr.write(`Importing ${from} into ${api.base} …\n`);
  const query = new URLSearchParams({
    ...(categories.length ? { categories: categories.join(',') } : {}),
    ...(o.status ? { status: o.status } : {}),
  }).toString();
  const reply = isUrl
    ? await api.send('POST', '/imports', {
        body: {
          url: from,
          ...(categories.length ? { categories } : {}),
          ...(o.status ? { status: o.status } : {}),
          ...(resync !== undefined ? { resync_minutes: resync } : {}),
        },
      })
    : await api.send('POST', `/imports${query ? `?${query}` : ''}`, {
        raw: text,
        headers: { 'content-type': 'text/calendar; charset=utf-8' },
      });
  const data = reply.data as {
    id: number;
    rest_url: string;
    last_run: Report;
    message?: string;
    data?: { params?: Record<string, string> };
  };
  if (reply.status !== 201) {
    const detail = Object.values(data?.data?.params ?? {})[0] ?? data?.message ?? `HTTP ${reply.status}`;
    throw new ImportError(`The API refused the feed (${reply.status}): ${detail}`);
  }
  const r = data.last_run;
  console.log(
    `Import ${data.id} (${data.rest_url}): ${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged, ${r.trashed} trashed, ${r.skipped.length} skipped`,
  );
  for (const s of r.skipped) console.log(`skipped ${s.reason}`);
}
