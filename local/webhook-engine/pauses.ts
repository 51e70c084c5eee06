import { onLocalWrite } from '../write-signal';

/**
 * How the local webhook engine's loops rest: a pause that a wake (new deliveries, stopping) ends at
 * once, and that a write of this process (local/write-signal.ts) ends no sooner than `pollMs` after it
 * began, so a stream of writes (an import) is read in batches rather than once per write.
 */
export interface Pauses {
  /** Pauses for `ms`; true when woken (or nudged by a write) before. */
  sleep(ms: number): Promise<boolean>;
  /** Ends every pause now. */
  wake(): void;
  /** Writes of this process so far: a loop that saw one while it worked does not back off. */
  writes(): number;
  /** Stops listening to writes. */
  close(): void;
}

interface Sleeper {
  since: number;
  done: (woken: boolean) => void;
  nudge: () => void;
}

export function pauses(pollMs: number): Pauses {
  const sleepers = new Set<Sleeper>();
  let writes = 0;
  const unsubscribe = onLocalWrite(() => {
    writes++;
    [...sleepers].forEach((s) => s.nudge());
  });
  return {
    sleep: (ms) =>
      new Promise<boolean>((ok) => {
        let timer = setTimeout(() => sleeper.done(false), ms);
        const sleeper: Sleeper = {
          since: Date.now(),
          done: (woken) => {
            clearTimeout(timer);
            sleepers.delete(sleeper);
            ok(woken);
          },
          nudge: () => {
            clearTimeout(timer);
            timer = setTimeout(() => sleeper.done(true), Math.max(0, sleeper.since + pollMs - Date.now()));
          },
        };
        sleepers.add(sleeper);
      }),
    wake: () => [...sleepers].forEach((s) => s.done(true)),
    writes: () => writes,
    close: () => unsubscribe(),
  };
}

/**
 * Runs `step` again at once while it is busy; idle, after pauses that double from pollMs up to idleMs.
 * A step that throws is logged and the loop goes on.
 */
export async function loop(
  name: string,
  step: () => Promise<boolean>,
  o: { pauses: Pauses; pollMs: number; idleMs: number; stopped: () => boolean; log: (line: string) => void },
): Promise<void> {
  let pause = o.pollMs;
  while (!o.stopped()) {
    const before = o.pauses.writes();
    let busy = false;
    try {
      busy = await step();
    } catch (e) {
      if (!o.stopped()) o.log(`webhooks: the ${name} stumbled (${(e as Error).message}); going on`);
    }
    if (busy) pause = o.pollMs;
    else if (!o.stopped()) {
      const wrote = o.pauses.writes() !== before;
      const woken = await o.pauses.sleep(wrote ? o.pollMs : pause);
      pause = woken || wrote ? o.pollMs : Math.min(pause * 2, o.idleMs);
    }
  }
}
