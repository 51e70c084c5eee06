import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DATA_DIR } from '../../local/secret';
import {
  defaultStateFile,
  importAnyCsv,
  ImportError,
  importIcs,
  importSite,
  loadState,
  openSite,
  progress,
  reportLines,
  saveState,
} from '../src';
import { targetClient } from './target';

/**
 * `npm run import -- <kind> <source> [options]` (docs/import-export.md):
 *
 *   npm run import -- site https://example.org [--user admin --app-password "abcd efgh ..."] [--dry-run]
 *   npm run import -- site http://localhost:3000/cal/events/v1 --source-token T --to https://api.example.com/cal/events/v1 --token T2
 *   npm run import -- csv events.csv [--dry-run]
 *   npm run import -- ics https://example.org/calendar.ics [--categories A,B] [--status draft] [--resync 60]
 *   npm run import -- csv venues.csv [--type venues]   (events, venues or organizers: told by the first line)
 *
 * Writes to the local stack (`npm start`) with an administrator token signed locally, unless --to
 * (and --token) name another deployment. Progress goes to stderr, the closing report to stdout.
 */

const USAGE =
  'Usage: npm run import -- site <site URL or REST root> [--user U --app-password P | --source-token T] [options]\n' +
  '       npm run import -- csv <file.csv> [--type events|venues|organizers] [options]\n' +
  '       npm run import -- ics <feed URL or .ics file> [--categories A,B] [--status S] [--resync minutes]\n' +
  'Options: [--to <API root> --token T] [--dry-run] [--no-deletes] [--state file] [--concurrency 8] [--quiet]';

/** Whether a URL is this machine (loopback and plain http are allowed for it, as the local stack). */
const isLocal = (raw: string) => {
  try {
    return ['localhost', '127.0.0.1', '[::1]'].includes(
      new URL(/^https?:/.test(raw) ? raw : `https://${raw}`).hostname,
    );
  } catch {
    return false;
  }
};

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      to: { type: 'string' },
      token: { type: 'string' },
      user: { type: 'string' },
      'app-password': { type: 'string' },
      'source-token': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'no-deletes': { type: 'boolean', default: false },
      state: { type: 'string' },
      concurrency: { type: 'string', default: '8' },
      quiet: { type: 'boolean', default: false },
      type: { type: 'string' },
      categories: { type: 'string' },
      status: { type: 'string' },
      resync: { type: 'string' },
    },
  });
  const [kind, from] = positionals;
  // A feed is imported by the service itself (POST /imports): one request, its report printed.
  if (kind === 'ics' && from) return importIcs(from, await targetClient(values.to, values.token), values);
  const concurrency = Number(values.concurrency);
  if ((kind !== 'site' && kind !== 'csv') || !from || !(concurrency >= 1)) throw new ImportError(USAGE);
  if ((values.user === undefined) !== (values['app-password'] === undefined))
    throw new ImportError('--user and --app-password go together (an application password of that user).');

  const api = await targetClient(values.to, values.token);
  const source =
    kind === 'site'
      ? await openSite(
          from,
          { user: values.user, appPassword: values['app-password'], token: values['source-token'] },
          isLocal(from),
        )
      : undefined;
  const sourceName = source?.root ?? `csv:${resolve(from)}`;
  const file = values.state ?? defaultStateFile(DATA_DIR, sourceName, api.base);
  const state = loadState(file, sourceName, api.base);
  const dryRun = values['dry-run'];
  const checkpoint = () => {
    if (!dryRun) saveState(file, state);
  };
  // Ctrl-C: what is written is in the state file, and the next run goes on from there.
  process.once('SIGINT', () => {
    checkpoint();
    process.stderr.write(`\nStopped. Run the same command again to resume (state: ${file}).\n`);
    process.exit(130);
  });
  const what = source
    ? `${source.root} (${source.authenticated ? 'every status' : 'published records only'})`
    : from;
  process.stderr.write(`Importing ${what} into ${api.base}\n`);
  for (const warning of source?.warnings ?? []) process.stderr.write(`Warning: ${warning}\n`);
  const common = {
    api,
    state,
    dryRun,
    concurrency,
    checkpoint,
    progress: progress(process.stderr, values.quiet),
  };
  const report = await (
    source
      ? importSite({ source, noDeletes: values['no-deletes'], ...common })
      : importAnyCsv({ file: from, type: values.type, ...common })
  ).finally(checkpoint);
  console.log(reportLines(report, dryRun).join('\n'));
  if (!dryRun) console.log(`State: ${file}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    const message =
      e instanceof ImportError || (e as Error).name === 'TypeError'
        ? (e as Error).message
        : String((e as Error).stack ?? e);
    console.error(`Import failed: ${message}`);
    process.exit(e instanceof ImportError ? 2 : 1);
  });
}

export { main };
