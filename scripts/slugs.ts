import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CalApiError } from '../client/src';
import { LIVE_STATUSES } from '../shared/domain/statuses';
import { withSuffix } from '../shared/domain/slugs';
import { allEvents, type ApiClient, ImportError } from '../import-export/src';
import { targetClient } from '../import-export/cli/target';
import { rederived, urlWithSlug } from './slug-fixes';

/**
 * `npm run slugs [-- --apply] [--to <API root> --token T]`: re-derives, by the rule of decisions §9,
 * the slugs of records whose slug was made from their ID or lost its letters to the old rule (issue 39;
 * scripts/slug-fixes.ts says which). A dry run by default: it lists each URL change (old → new) and
 * writes nothing; `--apply` renames through the API. Records whose slug someone chose are kept. A new
 * slug another record holds gets the next free `-N`.
 */

const USAGE = 'Usage: npm run slugs [-- --apply] [--to <API root> --token <editor or administrator token>]';
const anyStatus = () => ({ status: [...LIVE_STATUSES], per_page: 50 });

interface Kind {
  noun: string;
  records(api: ApiClient): AsyncIterable<{ id: number; slug: string; name: string; url: string }>;
  /** Renames one record; answers its new `url`. */
  rename(api: ApiClient, r: { id: number; slug: string }, slug: string): Promise<string>;
}

const urlOf = (reply: { data: unknown }) => (reply.data as { url: string }).url;

const KINDS: Kind[] = [
  {
    noun: 'category',
    async *records(api) {
      for await (const t of api.items('listCategories', { query: { hide_empty: false, per_page: 50 } }))
        yield { id: t.id, slug: t.slug, name: t.name, url: t.url };
    },
    rename: async (api, r, slug) => urlOf(await api.updateCategory({ path: { id: r.id }, body: { slug } })),
  },
  {
    noun: 'tag',
    async *records(api) {
      for await (const t of api.items('listTags', { query: { hide_empty: false, per_page: 50 } }))
        yield { id: t.id, slug: t.slug, name: t.name, url: t.url };
    },
    rename: async (api, r, slug) => urlOf(await api.updateTag({ path: { id: r.id }, body: { slug } })),
  },
  {
    noun: 'venue',
    async *records(api) {
      for await (const v of api.items('listVenues', { query: anyStatus() }))
        yield { id: v.id, slug: v.slug, name: v.venue, url: v.url };
    },
    // Only the by-slug update renames a venue or an organizer (decisions §6).
    rename: async (api, r, slug) =>
      urlOf(await api.updateVenueBySlug({ path: { slug: r.slug }, body: { slug } })),
  },
  {
    noun: 'organizer',
    async *records(api) {
      for await (const o of api.items('listOrganizers', { query: anyStatus() }))
        yield { id: o.id, slug: o.slug, name: o.organizer, url: o.url };
    },
    rename: async (api, r, slug) =>
      urlOf(await api.updateOrganizerBySlug({ path: { slug: r.slug }, body: { slug } })),
  },
  {
    noun: 'event',
    async *records(api) {
      for await (const e of allEvents(api)) yield { id: e.id, slug: e.slug, name: e.title, url: e.url };
    },
    rename: async (api, r, slug) => urlOf(await api.updateEvent({ path: { id: r.id }, body: { slug } })),
  },
];

const taken = (e: unknown) =>
  e instanceof CalApiError && JSON.stringify(e.body.data ?? {}).includes('rest_slug_taken');

/** Renames to `slug`, or to the first free `slug-N` when another record holds it. */
async function renameFree(kind: Kind, api: ApiClient, r: { id: number; slug: string }, slug: string) {
  for (let n = 1; n <= 100; n++) {
    try {
      return await kind.rename(api, r, n === 1 ? slug : withSuffix(slug, n));
    } catch (e) {
      if (!taken(e)) throw e;
    }
  }
  throw new ImportError(`no free slug near "${slug}" for ${kind.noun} ${r.id}.`);
}

export interface SlugRun {
  checked: number;
  changes: Array<{ noun: string; id: number; from: string; to: string }>;
}

/** Goes through every record of every kind; with `apply`, renames those to re-derive. */
export async function fixSlugs(
  api: ApiClient,
  {
    apply,
    out = console.log,
    progress = (_: string) => {},
  }: {
    apply: boolean;
    out?: (line: string) => void;
    progress?: (line: string) => void;
  },
): Promise<SlugRun> {
  const run: SlugRun = { checked: 0, changes: [] };
  for (const kind of KINDS) {
    // Read the kind whole first: renaming while paging could move a record across pages.
    const due: Array<{ id: number; slug: string; url: string; to: string }> = [];
    for await (const r of kind.records(api)) {
      if (++run.checked % 100 === 0) progress(`checked ${run.checked} records`);
      const to = rederived(r);
      if (to) due.push({ ...r, to });
    }
    for (const [i, r] of due.entries()) {
      const url = apply ? await renameFree(kind, api, r, r.to) : urlWithSlug(r.url, r.slug, r.to);
      out(`${kind.noun} ${r.id}: ${r.url} → ${url}`);
      run.changes.push({ noun: kind.noun, id: r.id, from: r.url, to: url });
      if (apply) progress(`${kind.noun}: renamed ${i + 1} of ${due.length}`);
    }
  }
  return run;
}

export async function main(argv: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        apply: { type: 'boolean', default: false },
        to: { type: 'string' },
        token: { type: 'string' },
      },
    }));
  } catch (e) {
    throw new ImportError(`${(e as Error).message}. ${USAGE}`);
  }
  const api = await targetClient(values.to, values.token);
  const tty = process.stderr.isTTY;
  const progress = (line: string) => process.stderr.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
  const run = await fixSlugs(api, { apply: values.apply!, progress });
  if (tty) process.stderr.write('\r\x1b[K');
  const n = run.changes.length;
  process.stderr.write(
    values.apply
      ? `${run.checked} records checked, ${n} renamed.\n`
      : `${run.checked} records checked, ${n} to rename${n ? ': run again with --apply to write' : ''}.\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    const known = e instanceof ImportError || e instanceof CalApiError || (e as Error).name === 'TypeError';
    console.error(`Slugs: ${known ? (e as Error).message : String((e as Error).stack ?? e)}`);
    process.exit(known ? 2 : 1);
  });
}
