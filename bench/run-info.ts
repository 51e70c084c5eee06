import { cpus, loadavg } from 'node:os';

/** The machine and the moment of a bench run, written with its figures: they depend on the machine's load. */
export interface RunInfo {
  commit: string;
  date: string;
  node: string;
  cpus: number;
  loadavg_before: number[];
  loadavg_after: number[];
}

const loads = () => loadavg().map((l) => Math.round(l * 100) / 100);

/** Notes the load as a run starts; the function it returns completes the note when the run ends. */
export function startRunInfo(commit: string): () => RunInfo {
  const before = loads();
  return () => ({
    commit,
    date: new Date().toISOString().slice(0, 10),
    node: process.versions.node,
    cpus: cpus().length,
    loadavg_before: before,
    loadavg_after: loads(),
  });
}
