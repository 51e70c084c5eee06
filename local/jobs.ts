import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import {
  type BackgroundPart,
  LOCAL_TIME_FACTOR,
  localPeriodMs,
  type ScheduledPart,
  scheduledParts,
} from '../shared/contracts/background';
import { jobSummary } from './job-summaries';

/**
 * The local job runner: the scheduled parts of the background list (shared/contracts/background.ts),
 * each its deployed handler (functions/jobs/*), invoked as EventBridge Scheduler invokes it deployed,
 * on the deployed schedule sped up by LOCAL_TIME_FACTOR, and run as the local gateway runs the API's
 * handlers (local/gateway.ts): with a Lambda context whose remaining time counts down from the part's
 * timeout, and cut off when it passes it (a timed-out run, logged). Node cannot stop the handler: its
 * work goes on in the background, as Lambda would not let it, and its late result is dropped. Memory is
 * not limited here (docs/operations.md, "Background parts").
 *
 * One run of a part at a time, as the local timers always did: a slow run on a busy machine is not
 * stacked on by the next tick (a run that timed out no longer counts: deployed, the next one starts).
 * `stop` starts no run after it and waits for the runs still within their time.
 */
export type JobHandler = (event: unknown, context: Context) => Promise<unknown>;

export type JobOutcome =
  | { part: string; status: 'ok'; ms: number; result: unknown }
  | { part: string; status: 'failed'; ms: number; error: Error }
  | { part: string; status: 'timed out'; ms: number };

export interface JobRunnerOptions {
  /** The parts to run: the list's scheduled ones. */
  parts?: ScheduledPart[];
  /** A part's handler: its module's `handler` export; tests give stand-ins. */
  load?: (part: ScheduledPart) => Promise<JobHandler>;
  /** How much sooner than deployed the schedules run (LOCAL_TIME_FACTOR). */
  factor?: number;
  /** A part's time, in ms: its deployed timeout. */
  timeoutMs?: (part: ScheduledPart) => number;
  log?: (line: string) => void;
}

export interface JobRunner {
  stop: () => Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '..');

/** The handler Lambda runs for the part: its module's `handler`. */
export const loadHandler = async (part: ScheduledPart): Promise<JobHandler> =>
  ((await import(pathToFileURL(resolve(ROOT, `${part.handler}.ts`)).href)) as { handler: JobHandler })
    .handler;

/** A part's deployed time, in ms. */
export const deployedTimeoutMs = (part: ScheduledPart) => part.timeoutSeconds * 1000;

/** The Lambda context of one invocation: its time left counts down from the invocation's start. */
export function jobContext(part: BackgroundPart, timeoutMs: number): Context {
  const ends = Date.now() + timeoutMs;
  return {
    functionName: part.name,
    awsRequestId: randomUUID(),
    memoryLimitInMB: String(part.memoryMb),
    getRemainingTimeInMillis: () => Math.max(0, ends - Date.now()),
  } as Context;
}

/** What EventBridge Scheduler sends a target with no input of its own. */
const SCHEDULED_EVENT = {};

/** One invocation of `handler` under `timeoutMs`: its result, its error, or a timed-out run. */
export async function invokeUnderTimeout(
  part: BackgroundPart,
  handler: JobHandler,
  timeoutMs: number,
  event: unknown = SCHEDULED_EVENT,
): Promise<JobOutcome> {
  const started = Date.now();
  const ms = () => Date.now() - started;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<JobOutcome>((ok) => {
    timer = setTimeout(() => ok({ part: part.name, status: 'timed out', ms: ms() }), timeoutMs);
  });
  const run = Promise.resolve()
    .then(() => handler(event, jobContext(part, timeoutMs)))
    .then(
      (result): JobOutcome => ({ part: part.name, status: 'ok', ms: ms(), result }),
      (e: unknown): JobOutcome => ({
        part: part.name,
        status: 'failed',
        ms: ms(),
        error: e instanceof Error ? e : new Error(String(e)),
      }),
    );
  try {
    return await Promise.race([run, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

const seconds = (ms: number) => (ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${ms / 1000} s`);

/** The line a run's outcome is logged as; nothing for a run that did nothing worth saying. */
export function outcomeLine(o: JobOutcome, periodMs: number, timeoutMs: number): string | undefined {
  const next = `next run in ${seconds(periodMs)}`;
  if (o.status === 'timed out')
    return `Job ${o.part} timed out: still running after its ${seconds(timeoutMs)} (its deployed time); ${next}.`;
  if (o.status === 'failed') return `Job ${o.part} failed (${o.error.message}); ${next}.`;
  return jobSummary(o.part, o.result);
}

/** Runs each part on its local period, until stopped. */
export function startJobs(o: JobRunnerOptions = {}): JobRunner {
  const {
    parts = scheduledParts(),
    load = loadHandler,
    factor = LOCAL_TIME_FACTOR,
    timeoutMs = deployedTimeoutMs,
    log = console.log,
  } = o;
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];
  /** The run of each part within its time, by name. */
  const running = new Map<string, Promise<void>>();

  for (const part of parts) {
    const periodMs = localPeriodMs(part, factor);
    const limit = timeoutMs(part);
    const run = () => {
      if (stopped || running.has(part.name)) return;
      const done = load(part)
        .then((handler) => invokeUnderTimeout(part, handler, limit))
        .then((outcome) => {
          const line = outcomeLine(outcome, periodMs, limit);
          if (line) log(line);
        })
        .catch((e: Error) => log(`Job ${part.name} could not be started (${e.message}).`))
        .finally(() => running.delete(part.name));
      running.set(part.name, done);
    };
    if (part.trigger.localAtStart) run();
    const timer = setInterval(run, periodMs);
    timer.unref();
    timers.push(timer);
  }

  return {
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await Promise.all(running.values());
    },
  };
}
