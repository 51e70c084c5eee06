import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { csv, ics, ImportError, jsonl } from '../src';
import { targetClient } from './target';

/**
 * `npm run export -- --format jsonl|csv|ics [--type events|venues|organizers] [--to <API root> --token T] > file`:
 * the whole calendar, every status (the local stack's administrator token, or the one given), in one
 * of the formats of import-export/src/export.ts.
 */

const FORMATS = { jsonl, csv, ics } as const;

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      format: { type: 'string' },
      type: { type: 'string', default: 'events' },
      to: { type: 'string' },
      token: { type: 'string' },
    },
  });
  const format = values.format as keyof typeof FORMATS | undefined;
  if (!format || !(format in FORMATS))
    throw new ImportError(
      'Usage: npm run export -- --format jsonl|csv|ics [--type events|venues|organizers] [--to <API root> --token T] > file',
    );
  const type = values.type as 'events' | 'venues' | 'organizers';
  if (!['events', 'venues', 'organizers'].includes(type) || (type !== 'events' && format !== 'csv'))
    throw new ImportError('--type venues|organizers goes with --format csv (jsonl holds every record).');
  const api = await targetClient(values.to, values.token);
  let n = 0;
  for await (const chunk of format === 'csv' ? csv(api, type) : FORMATS[format](api)) {
    if (!process.stdout.write(chunk)) await new Promise((ok) => process.stdout.once('drain', ok));
    if (++n % 1000 === 0) process.stderr.write(`\r${n} records`);
  }
  if (n >= 1000) process.stderr.write('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    const known = e instanceof ImportError || (e as Error).name === 'TypeError';
    console.error(`Export failed: ${known ? (e as Error).message : String((e as Error).stack ?? e)}`);
    process.exit(known ? 2 : 1);
  });
}
