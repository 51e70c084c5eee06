import { readFileSync } from 'node:fs';
import { LIVE_STATUSES } from '../../shared/domain/statuses';
import { CalApiError } from '../../client/src';
import { type ApiClient, pool } from './api-client';
import { CsvFileError, type ParsedRow, readCsvRows } from '../../shared/domain/csv-events';
import { CellError, COLUMN_OF, rowToEvent } from './csv-columns';
import type { Progress } from './progress';
import { ImportError } from './site-source';
import type { ImportState } from './state';
import { type Report, upserter } from './upsert';
import { identityOf, lookUp } from './csv-lookup';
import type { EventBody } from './site-records';

/**
 * `npm run import -- csv <file>`: one event per row, in the reference plugin's columns
 * (csv-columns.ts). A row is one write (its venue, organizers and terms inline), so it lands whole or
 * not at all; a row with a bad cell is skipped, named by its line and column, and the rest imported.
 *
 * A row is the same event on the next run when its `Event Slug` is (the export writes it), else when
 * its name and start are: the state file remembers which target event each became, and without it the
 * event is looked for by slug, or by name and start (csv-lookup.ts, a window of rows at a time).
 */

export interface CsvImportOptions {
  file: string;
  api: ApiClient;
  state: ImportState;
  dryRun: boolean;
  progress: Progress;
  concurrency?: number;
  checkpoint(): void;
}

export type { ParsedRow };

/** The rows of a CSV file (csv-events.ts readCsvRows); a file that cannot be read is one ImportError. */
export function readRows(
  text: string,
  file: string,
  columns?: readonly string[],
  required?: readonly string[],
): ParsedRow[] {
  try {
    return readCsvRows(text, columns, required);
  } catch (e) {
    if (e instanceof CsvFileError) throw new ImportError(e.describe(file));
    throw e;
  }
}

export async function importCsv(o: CsvImportOptions): Promise<Report> {
  let text: string;
  try {
    text = readFileSync(o.file, 'utf8');
  } catch (e) {
    throw new ImportError(
      `Cannot read ${o.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`,
    );
  }
  const rows = readRows(text, o.file).map(({ line, row }) => {
    try {
      return { line, body: rowToEvent(row) };
    } catch (e) {
      if (!(e instanceof CellError)) throw e;
      return { line, error: e };
    }
  });
  const { api } = o;
  const u = upserter(o.state, 'csv', o.dryRun);
  const identity = (b: EventBody) => b.slug ?? `${b.title}|${b.start_date}`;
  // Rows the state does not know, without a slug: looked up at the target window by window.
  const unknown = rows.flatMap(({ body: b }) =>
    b && !b.slug && !o.state.records[`events:${identity(b)}`]
      ? [{ title: b.title, start: String(b.start_date) }]
      : [],
  );
  const looked = await lookUp(api, unknown, o.progress);
  o.progress.phase('rows', rows.length);
  let done = 0;
  for (let at = 0; at < rows.length; at += 500) {
    await pool(rows.slice(at, at + 500), o.concurrency ?? 8, async ({ line, body, error }) => {
      const label = `line ${line}`;
      if (body) {
        const key = identityOf({ title: body.title, start: String(body.start_date) });
        await u.upsert('events', identity(body), label, body, {
          create: async (b, idempotencyKey) => {
            const reply = await api.createEvent({ body: b, idempotencyKey });
            return reply.headers.get('idempotent-replayed') === 'true'
              ? { replayed: reply.data.id }
              : reply.data.id;
          },
          update: (id, b) => api.updateEvent({ path: { id }, body: b }),
          find: async () =>
            looked.has(key)
              ? looked.get(key)
              : findEvent(api, body.slug, body.title, String(body.start_date)),
          fieldName: (field) => `column "${COLUMN_OF[field] ?? field}"`,
        });
      } else if (error) {
        (u.report.counts.events ??= { created: 0, updated: 0, unchanged: 0, skipped: 0, trashed: 0 })
          .skipped++;
        u.report.skipped.push({ record: label, reason: `column "${error.column}": ${error.message}` });
      }
      o.progress.tick(++done, u.counts('events'));
    });
    o.checkpoint();
  }
  o.progress.end();
  return u.report;
}

/** The target event a row already is: by slug, else by the same name and start. */
async function findEvent(
  api: ApiClient,
  slug: string | undefined,
  title: string,
  start: string,
): Promise<number | undefined> {
  if (slug) {
    try {
      return (await api.getEventBySlug({ path: { slug } })).data.id;
    } catch (e) {
      if (!(e instanceof CalApiError && e.status === 404)) throw e;
      return undefined;
    }
  }
  const day = start.slice(0, 10);
  // Listed events, then those hidden from listings (a list shows them only when asked).
  for (const hidden of [false, true])
    for await (const e of api.items('listEvents', {
      query: {
        search: title,
        start_date: day,
        end_date: day,
        status: [...LIVE_STATUSES],
        per_page: 50,
        ...(hidden ? { hide_from_listings: true } : {}),
      },
    }))
      if (e.title === title && e.start_date.startsWith(start)) return e.id;
  return undefined;
}
