import { loadEveryBodyPart } from '../shared/http/lazy-parts';
import { runDueImports } from '../shared/services/imports';
import { repeatJob } from './repeating-job';

/**
 * Re-syncs of feed imports in the local stack (docs/import-export.md): every minute, the imports whose
 * `resync_minutes` have passed since their last run are fetched and synced again (deployed, the
 * resyncImports job does the same: functions/jobs/resync-imports.ts).
 */
const EVERY_MS = 60 * 1000;

export function startImportTimer(o: { log?: (line: string) => void; everyMs?: number } = {}): {
  stop: () => Promise<void>;
} {
  const { log = console.log, everyMs = EVERY_MS } = o;
  const resync = () =>
    loadEveryBodyPart()
      .then(() => runDueImports(Date.now(), (line) => log(`Feed ${line}`)))
      .then(() => undefined)
      .catch((e: Error) => log(`Feed imports could not be re-synced (${e.message}); next try in a minute.`));
  return repeatJob(resync, { everyMs });
}
