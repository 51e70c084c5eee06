/**
 * A job the local stack runs on a timer, as a deployed schedule runs it: one run at a time (a slow run
 * on a busy machine is not stacked on by the next tick), and `stop` starts no run after it and waits
 * for the one under way, so the database is not stopped beneath it. The job handles its own errors.
 */
export function repeatJob(
  job: () => Promise<void>,
  o: { everyMs: number; atStart?: boolean },
): { stop: () => Promise<void> } {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= job().finally(() => (running = undefined));
  };
  if (o.atStart) run();
  const timer = setInterval(run, o.everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
