import { COLUMN_OF, CellError, type CsvEventBody, type ParsedRow, rowToEvent } from '../../domain/csv-events';
import { DomainError } from '../../domain/errors';
import { type ImportRecord, type ImportReport, putImported } from '../../repositories/imports';
import type { Writer } from '../common';
import { createEvent, type EventBody } from '../events/write';
import { checkAsPostEvents, emptyReport, reasonOf } from './report';

/**
 * One run of a CSV import (`POST /imports` with a text/csv body; docs/import-export.md): each row one
 * event, written as `POST /events` writes it (venue, organizers and terms inline, in the event's own
 * transaction), so a row lands whole or not at all. A row with a bad cell, or one the service refuses,
 * is skipped and reported by its line and column; the others are imported. A dry run writes nothing.
 */

/** A row's event with the import's options: its categories added; its status where the row names none. */
function bodyFor(rec: Pick<ImportRecord, 'categories' | 'status'>, row: ParsedRow['row']): CsvEventBody {
  const body = rowToEvent(row);
  const categories = [...new Set([...body.categories, ...rec.categories])];
  const status = (row['Event Status'] ?? '').trim() ? body.status : rec.status;
  return { ...body, categories, status };
}

const columnOf = (field: string) => `column "${COLUMN_OF[field] ?? field}"`;

export async function runCsvImport(
  rec: Pick<ImportRecord, 'id' | 'categories' | 'status' | 'owner' | 'root'>,
  rows: ParsedRow[],
  dryRun = false,
): Promise<ImportReport> {
  const report = emptyReport();
  const ctx: Writer = { user: rec.owner, root: rec.root };
  for (const { line, row } of rows) {
    try {
      const body = bodyFor(rec, row) as EventBody;
      // Checked as POST /events checks its body, in a dry run too.
      checkAsPostEvents(body);
      if (!dryRun) {
        const id = (await createEvent(body, new Set(Object.keys(body)), ctx)).id as number;
        // Kept so that the import counts its events; a CSV import is never run again.
        await putImported(rec.id, { uid: `line ${line}`, event_id: id, series: false, digest: '' });
      }
      report.created++;
    } catch (e) {
      const reason =
        e instanceof CellError
          ? `column "${e.column}": ${e.message}`
          : e instanceof DomainError
            ? reasonOf(e, columnOf)
            : undefined;
      if (reason === undefined) throw e;
      report.skipped.push({ line, reason: `line ${line}: ${reason}` });
    }
  }
  report.finished_utc = new Date().toISOString();
  return report;
}
