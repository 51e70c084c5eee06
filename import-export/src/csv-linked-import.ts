import { readFileSync } from 'node:fs';
import { LIVE_STATUSES } from '../../shared/domain/statuses';
import { parse } from 'csv-parse/sync';
import { CalApiError } from '../../client/src';
import { type ApiClient, pool } from './api-client';
import { CellError } from './csv-columns';
import { type CsvImportOptions, importCsv, readRows } from './csv-import';
import { LINKED_COLUMN_OF, ORGANIZER_COLUMNS, rowToOrganizer, rowToVenue, VENUE_COLUMNS } from './csv-linked';
import { ImportError } from './site-source';
import { type Report, upserter } from './upsert';

/**
 * `npm run import -- csv <file> [--type events|venues|organizers]`: the kind of file is told by its
 * first line (the column naming the record: Event Name, Venue Name or Organizer Name) unless given.
 * Venues and organizers are imported as events are (csv-import.ts): one write a row, a bad cell skips
 * its row by line and column, a second run sends nothing for a row it wrote the same before.
 */

export const CSV_KINDS = ['events', 'venues', 'organizers'] as const;
export type CsvKind = (typeof CSV_KINDS)[number];

const NAME_COLUMN: Record<CsvKind, string> = {
  events: 'Event Name',
  venues: 'Venue Name',
  organizers: 'Organizer Name',
};

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new ImportError(
      `Cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`,
    );
  }
}

/** The kind of a CSV file: the one given, else the one whose name column its first line holds. */
export function csvKind(file: string, given?: string): CsvKind {
  if (given !== undefined) {
    if (!(CSV_KINDS as readonly string[]).includes(given))
      throw new ImportError(`--type is one of ${CSV_KINDS.join(', ')}, not "${given}".`);
    return given as CsvKind;
  }
  let header: string[] = [];
  try {
    header = ((parse(readText(file), { bom: true, to_line: 1 }) as string[][])[0] ?? []).map((h) => h.trim());
  } catch (e) {
    throw new ImportError(`${file} is not readable CSV: ${(e as Error).message}`);
  }
  const kind = CSV_KINDS.find((k) => header.includes(NAME_COLUMN[k]));
  if (!kind)
    throw new ImportError(
      `${file}: the first line names no ${Object.values(NAME_COLUMN).join(', ')} column; name the columns, or give --type.`,
    );
  return kind;
}

/** Imports a CSV file of events, venues or organizers. */
export async function importAnyCsv(o: CsvImportOptions & { type?: string }): Promise<Report> {
  const kind = csvKind(o.file, o.type);
  return kind === 'events' ? importCsv(o) : importLinkedCsv(kind, o);
}

/** The operations of one kind: the client's calls, named alike for venues and organizers. */
function opsOf(api: ApiClient, kind: 'venues' | 'organizers') {
  const venues = kind === 'venues';
  return {
    toBody: venues ? rowToVenue : rowToOrganizer,
    nameOf: (body: object) => String((body as Record<string, unknown>)[venues ? 'venue' : 'organizer']),
    create: (body: object, idempotencyKey: string) =>
      venues
        ? api.createVenue({ body: body as never, idempotencyKey })
        : api.createOrganizer({ body: body as never, idempotencyKey }),
    update: (id: number, body: object) =>
      venues
        ? api.updateVenue({ path: { id }, body: body as never })
        : api.updateOrganizer({ path: { id }, body: body as never }),
    /** Venues and organizers are renamed through their by-slug update (the update by ID takes no slug). */
    rename: (from: string, slug: string) =>
      venues
        ? api.updateVenueBySlug({ path: { slug: from }, body: { slug } })
        : api.updateOrganizerBySlug({ path: { slug: from }, body: { slug } }),
    bySlug: (slug: string) =>
      venues ? api.getVenueBySlug({ path: { slug } }) : api.getOrganizerBySlug({ path: { slug } }),
    search: (name: string) =>
      venues
        ? api.items('listVenues', { query: { search: name, status: [...LIVE_STATUSES], per_page: 50 } })
        : api.items('listOrganizers', { query: { search: name, status: [...LIVE_STATUSES], per_page: 50 } }),
  };
}

/**
 * Venues or organizers, one a row. A row is the same record on the next run when its slug column is
 * (the export writes it), else when its name is. Creates take no slug: a row's slug is given to the new
 * record by a rename when nobody holds it (else the slug made from the name stays).
 */
export async function importLinkedCsv(kind: 'venues' | 'organizers', o: CsvImportOptions): Promise<Report> {
  const columns = kind === 'venues' ? VENUE_COLUMNS : ORGANIZER_COLUMNS;
  const rows = readRows(readText(o.file), o.file, columns, [NAME_COLUMN[kind]]);
  const ops = opsOf(o.api, kind);
  const slugColumn = kind === 'venues' ? 'Venue Slug' : 'Organizer Slug';
  const u = upserter(o.state, 'csv', o.dryRun);
  o.progress.phase('rows', rows.length);
  let done = 0;
  for (let at = 0; at < rows.length; at += 500) {
    await pool(rows.slice(at, at + 500), o.concurrency ?? 8, async ({ line, row }) => {
      const label = `line ${line}`;
      const cells = row as Partial<Record<string, string>>;
      try {
        const body = ops.toBody(cells);
        const name = ops.nameOf(body);
        const slug = (cells[slugColumn] ?? '').trim();
        await u.upsert(kind, slug || name, label, body, {
          create: async (b, idempotencyKey) => {
            const reply = await ops.create(b, idempotencyKey);
            if (reply.headers.get('idempotent-replayed') === 'true') return { replayed: reply.data.id };
            if (slug && reply.data.slug !== slug)
              await ops.rename(reply.data.slug, slug).catch((e: unknown) => {
                // Held by another record: the made slug stays.
                if (!(e instanceof CalApiError && e.status === 400)) throw e;
              });
            return reply.data.id;
          },
          update: (id, b) => ops.update(id, b),
          find: () => findRecord(ops, slug, name),
          fieldName: (field) => `column "${LINKED_COLUMN_OF[kind][field] ?? field}"`,
        });
      } catch (e) {
        if (!(e instanceof CellError)) throw e;
        (u.report.counts[kind] ??= { created: 0, updated: 0, unchanged: 0, skipped: 0, trashed: 0 })
          .skipped++;
        u.report.skipped.push({ record: label, reason: `column "${e.column}": ${e.message}` });
      }
      o.progress.tick(++done, u.counts(kind));
    });
    o.checkpoint();
  }
  o.progress.end();
  return u.report;
}

/** The target record a row already is: by slug, else by the same name. */
async function findRecord(
  ops: ReturnType<typeof opsOf>,
  slug: string,
  name: string,
): Promise<number | undefined> {
  if (slug) {
    try {
      return (await ops.bySlug(slug)).data.id;
    } catch (e) {
      if (!(e instanceof CalApiError && e.status === 404)) throw e;
      return undefined;
    }
  }
  for await (const r of ops.search(name) as AsyncIterable<Record<string, unknown> & { id: number }>)
    if (ops.nameOf(r) === name) return r.id;
  return undefined;
}
