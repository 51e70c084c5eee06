/**
 * One progress line on stderr (stdout stays for what a command outputs): rewritten in place on a
 * terminal, else printed every few seconds so a log shows the run moving.
 */
export interface Progress {
  /** A new phase: its name and how many records it expects. */
  phase(name: string, total: number): void;
  /** `done` records of the phase handled; `counts` what became of them so far. */
  tick(done: number, counts: string): void;
  end(): void;
}

const duration = (s: number) =>
  s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`
      : `${Math.round(s)}s`;

export function progress(stream: NodeJS.WriteStream = process.stderr, quiet = false): Progress {
  const tty = stream.isTTY === true;
  let name = '';
  let total = 0;
  let started = 0;
  let lastPrinted = 0;
  let shown = false;
  const print = (line: string, force: boolean) => {
    if (quiet) return;
    const now = performance.now();
    if (tty) {
      stream.write(`\r${line.slice(0, (stream.columns || 120) - 1).padEnd(shown ? 60 : 0)}`);
      shown = true;
    } else if (force || now - lastPrinted > 5000) {
      stream.write(`${line}\n`);
      lastPrinted = now;
    }
  };
  return {
    phase(n, t) {
      if (shown) stream.write('\n');
      shown = false;
      name = n;
      total = t;
      started = performance.now();
      print(`${name}: ${total} to read`, true);
    },
    tick(done, counts) {
      const elapsed = (performance.now() - started) / 1000;
      const rate = elapsed > 0 ? done / elapsed : 0;
      const left = total > done && rate > 0 ? ` · ETA ${duration((total - done) / rate)}` : '';
      const pct = total > 0 ? ` (${Math.floor((100 * done) / total)}%)` : '';
      print(`${name} ${done}/${total}${pct} · ${counts} · ${rate.toFixed(1)}/s${left}`, done >= total);
    },
    end() {
      if (shown) stream.write('\n');
      shown = false;
    },
  };
}
