/**
 * Import and export over the API (docs/import-export.md): a WordPress site (The Events Calendar), CSV
 * files and iCalendar feeds in; JSON lines, CSV and iCalendar out. Everything goes through the typed
 * client (client/), so it works against the local stack and a deployment alike. The commands are in cli/.
 */
export { apiClient, type ApiClient, pool } from './api-client';
export { importClient } from './target';
export { progress, type Progress } from './progress';
export { ImportError, candidateRoots, openSite, type SiteSource, type SourceAuth } from './site-source';
export { defaultStateFile, type ImportState, loadState, saveState } from './state';
export { type Report, reportLines } from './upsert';
export { importSite } from './site-import';
export { type CsvImportOptions, importCsv } from './csv-import';
export { EVENT_COLUMNS } from './csv-columns';
export { importAnyCsv, importLinkedCsv } from './csv-linked-import';
export { importIcs } from './ics';
export { allEvents, csv, ics, jsonl } from './export';
