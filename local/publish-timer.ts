import { publishDue } from '../shared/services/maintenance';
import { repeatJob } from './repeating-job';

/**
 * Scheduled publication in the local stack (decisions §9): every few seconds, the `future` events,
 * venues and organizers whose date has come are published (deployed, the publishScheduled job does the
 * same every minute: functions/jobs/publish-scheduled.ts). Once at start too, for dates that came while
 * the stack was stopped.
 */
const EVERY_MS = 5 * 1000;

export function startPublishTimer(o: { log?: (line: string) => void; everyMs?: number } = {}): {
  stop: () => Promise<void>;
} {
  const { log = console.log, everyMs = EVERY_MS } = o;
  const publish = () =>
    publishDue(new Date(), log)
      .then((r) => {
        if (r.published) log(`Scheduled posts: ${r.published} published.`);
      })
      .catch((e: Error) => log(`Scheduled posts could not be published (${e.message}); next try soon.`));
  return repeatJob(publish, { everyMs, atStart: true });
}
