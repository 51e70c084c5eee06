import { parse } from 'csv-parse/sync';
import { DateTime } from 'luxon';
import { keepProtection } from './csv-formulas';

/**
 * Events in the reference plugin's CSV columns (docs/import-export.md): the one mapper of
 * `POST /imports` with a text/csv body and of `npm run import -- csv`. Pure: rows in, event bodies or
 * cell errors out; writing them is the caller's.
 */

/**
 * The reference plugin's CSV columns for events, in its order, then three of ours that the export
 * writes so that a round trip keeps what the reference's columns cannot say (all optional on import).
 */
export const EVENT_COLUMNS = [
  'Event Name',
  'Event Description',
  'Event Excerpt',
  'Event Start Date',
  'Event Start Time',
  'Event End Date',
  'Event End Time',
  'Timezone',
  'All Day Event',
  'Hide Event From Event Listings',
  'Event Sticky in Month View',
  'Event Venue Name',
  'Event Organizer Name',
  'Event Show Map Link',
  'Event Show Map',
  'Event Cost',
  'Event Currency Symbol',
  'Event Currency Position',
  'Event Category',
  'Event Tags',
  'Event Website',
  'Event Featured Image',
  'Event Slug',
  'Event Status',
  'Event Featured',
] as const;

export type Column = (typeof EVENT_COLUMNS)[number];
export type Row = Partial<Record<Column, string>>;

/** A problem with one cell: its column and why. */
export class CellError extends Error {
  constructor(
    readonly column: Column | string,
    message: string,
  ) {
    super(message);
  }
}

/** Which column carries each field of an event body, to name it when the API refuses the field. */
export const COLUMN_OF: Record<string, Column> = {
  title: 'Event Name',
  description: 'Event Description',
  excerpt: 'Event Excerpt',
  start_date: 'Event Start Date',
  end_date: 'Event End Date',
  timezone: 'Timezone',
  all_day: 'All Day Event',
  hide_from_listings: 'Hide Event From Event Listings',
  sticky: 'Event Sticky in Month View',
  venue: 'Event Venue Name',
  organizer: 'Event Organizer Name',
  show_map_link: 'Event Show Map Link',
  show_map: 'Event Show Map',
  cost: 'Event Cost',
  categories: 'Event Category',
  tags: 'Event Tags',
  website: 'Event Website',
  image: 'Event Featured Image',
  slug: 'Event Slug',
  status: 'Event Status',
  featured: 'Event Featured',
};

const TRUE = new Set(['1', 'true', 'yes', 'y', 'on', 'x']);
const FALSE = new Set(['', '0', 'false', 'no', 'n', 'off']);

/** A yes-or-no cell (venue and organizer files too, csv-linked.ts). */
export function flag(row: Partial<Record<string, string>>, column: string): boolean {
  const v = (row[column] ?? '').trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw new CellError(column, `"${row[column]}" is not a yes or no (1/0, yes/no, true/false)`);
}

const DATE_FORMATS = ['yyyy-MM-dd', 'M/d/yyyy', 'yyyy/M/d', 'd.M.yyyy'];
const TIME_FORMATS = ['H:mm', 'H:mm:ss', 'h:mm a', 'h:mma', 'h a', 'ha'];

function date(row: Row, column: Column): string {
  const v = (row[column] ?? '').trim();
  for (const f of DATE_FORMATS) {
    const d = DateTime.fromFormat(v, f, { zone: 'utc' });
    if (d.isValid) return d.toFormat('yyyy-MM-dd');
  }
  throw new CellError(column, `"${v}" is not a date (YYYY-MM-DD or MM/DD/YYYY)`);
}

function time(row: Row, column: Column): string {
  const v = (row[column] ?? '').trim();
  for (const f of TIME_FORMATS) {
    const t = DateTime.fromFormat(v.toUpperCase(), f, { zone: 'utc', locale: 'en-US' });
    if (t.isValid) return t.toFormat('HH:mm:ss');
  }
  throw new CellError(column, `"${v}" is not a time (HH:MM, HH:MM:SS or 7:30 pm)`);
}

/** A list cell: comma-separated, blanks dropped. */
const list = (row: Row, column: Column) => (row[column] ?? '').split(',').map(keepProtection).filter(Boolean);

const STATUSES = new Set(['publish', 'future', 'draft', 'pending', 'private']);

/**
 * The event a row describes. Without times (and not marked all day) an event lasts whole days, as in
 * the reference; an end date left out is the start date. A currency symbol not in the cost already is
 * put before or after it (`Event Currency Position`: prefix, the default, or suffix). Venue and
 * organizers are inline objects by name (an existing record of that name is reused) and terms are
 * names (an unknown one is created), so the row is one write: all of it, or nothing.
 */
export function rowToEvent(row: Row): CsvEventBody {
  const title = keepProtection(row['Event Name'] ?? '');
  if (!title) throw new CellError('Event Name', 'an event needs a name');
  const startDay = date(row, 'Event Start Date');
  const endDay = (row['Event End Date'] ?? '').trim() ? date(row, 'Event End Date') : startDay;
  const hasTimes = Boolean((row['Event Start Time'] ?? '').trim() || (row['Event End Time'] ?? '').trim());
  const allDay = flag(row, 'All Day Event') || !hasTimes;
  const start = allDay ? startDay : `${startDay} ${time(row, 'Event Start Time')}`;
  const end = allDay
    ? endDay
    : `${endDay} ${(row['Event End Time'] ?? '').trim() ? time(row, 'Event End Time') : time(row, 'Event Start Time')}`;

  let cost = keepProtection(row['Event Cost'] ?? '');
  const symbol = (row['Event Currency Symbol'] ?? '').trim();
  const position = (row['Event Currency Position'] ?? '').trim().toLowerCase();
  // `postfix` is what the API (and so an export) gives; `suffix` what the reference's importer reads.
  if (position && !['prefix', 'suffix', 'postfix', 'before', 'after'].includes(position))
    throw new CellError('Event Currency Position', `"${position}" is not prefix or suffix`);
  if (cost && symbol && !cost.includes(symbol))
    cost = ['suffix', 'postfix', 'after'].includes(position) ? `${cost}${symbol}` : `${symbol}${cost}`;

  const status = (row['Event Status'] ?? '').trim().toLowerCase();
  if (status && !STATUSES.has(status))
    throw new CellError('Event Status', `"${status}" is not one of ${[...STATUSES].join(', ')}`);
  const venue = keepProtection(row['Event Venue Name'] ?? '');
  const slug = (row['Event Slug'] ?? '').trim();
  return {
    title,
    ...(slug ? { slug } : {}),
    status: status || 'publish',
    description: keepProtection(row['Event Description'] ?? ''),
    excerpt: keepProtection(row['Event Excerpt'] ?? ''),
    start_date: start,
    end_date: end,
    timezone: (row.Timezone ?? '').trim() || null,
    all_day: allDay,
    hide_from_listings: flag(row, 'Hide Event From Event Listings'),
    sticky: flag(row, 'Event Sticky in Month View'),
    featured: flag(row, 'Event Featured'),
    show_map_link: flag(row, 'Event Show Map Link'),
    show_map: flag(row, 'Event Show Map'),
    cost,
    website: (row['Event Website'] ?? '').trim(),
    image: (row['Event Featured Image'] ?? '').trim() || null,
    categories: list(row, 'Event Category'),
    tags: list(row, 'Event Tags'),
    venue: venue ? { venue } : null,
    organizer: list(row, 'Event Organizer Name').map((organizer) => ({ organizer })),
  };
}

/** An event body as a row gives it: the fields of `POST /events`, venue and organizers inline by name. */
export interface CsvEventBody {
  title: string;
  slug?: string;
  status: string;
  description: string;
  excerpt: string;
  start_date: string;
  end_date: string;
  timezone: string | null;
  all_day: boolean;
  hide_from_listings: boolean;
  sticky: boolean;
  featured: boolean;
  show_map_link: boolean;
  show_map: boolean;
  cost: string;
  website: string;
  image: string | null;
  categories: string[];
  tags: string[];
  venue: { venue: string } | null;
  organizer: Array<{ organizer: string }>;
}

export interface ParsedRow {
  /** The row's first line in the text (quoted cells may span lines). */
  line: number;
  row: Row;
}

/** A CSV text that cannot be read as rows of these columns; `subject` names it (a file, the body). */
export class CsvFileError extends Error {
  constructor(
    /** The column at fault: a required one missing, or the first unknown one. */
    readonly column: string | undefined,
    readonly describe: (subject: string) => string,
  ) {
    super(describe('The CSV'));
  }
}

/** The rows of a CSV text (a byte order mark, CRLF, LF or CR line ends, mixed, and quoted line breaks allowed). */
export function readCsvRows(
  text: string,
  columns: readonly string[] = EVENT_COLUMNS,
  required: readonly string[] = ['Event Name', 'Event Start Date'],
): ParsedRow[] {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    // One line end throughout: csv-parse takes the first line's for the whole text, so a file whose
    // first line ends in CRLF and the others in LF was one long row (issue 43). A CR inside a quoted
    // cell becomes a line feed too, which HTML and the service's plain text read the same.
    records = parse(text.replace(/\r\n?/g, '\n'), {
      columns: (header: string[]) => header.map((h) => h.trim()),
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: false,
      info: true,
    });
  } catch (e) {
    const why = (e as Error).message;
    throw new CsvFileError(undefined, (s) => `${s} is not readable CSV: ${why}`);
  }
  const header = records[0] ? Object.keys(records[0].record) : [];
  for (const needed of required)
    if (records.length && !header.includes(needed))
      throw new CsvFileError(
        needed,
        (s) =>
          `${s} has no "${needed}" column: the first line must name the columns (${columns.slice(0, 4).join(', ')}, ...).`,
      );
  const unknown = header.filter((h) => !columns.includes(h));
  if (unknown.length)
    throw new CsvFileError(
      unknown[0],
      (s) =>
        `${s}: unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}.`,
    );
  return records.map(({ record, info }) => ({ line: info.lines, row: record as Row }));
}
