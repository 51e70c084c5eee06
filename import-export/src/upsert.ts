import { CalApiError } from '../../client/src';
import { digest, type ImportState } from './state';

/**
 * The one write rule of every import: a record the state knows with the same body is left alone, one
 * it knows with another body is updated, one it does not know is looked for at the target (`find`) and
 * updated, else created. A create carries an Idempotency-Key made of the source record and its body, so
 * a run killed between a create and the state file's save creates nothing twice when resumed. A record
 * the API refuses (4xx) is skipped with the API's reason; anything else stops the run (resumable).
 */

export type Outcome = 'created' | 'updated' | 'unchanged' | 'skipped' | 'trashed';

export interface Report {
  /** Per collection, how many records had each outcome. */
  counts: Record<string, Record<Outcome, number>>;
  /** Every skipped record, with why. */
  skipped: Array<{ record: string; reason: string }>;
  /** Notes about records imported with something left out. */
  notes: Array<{ record: string; note: string }>;
  /** Copies moved to the trash because the source lists them no more. */
  trashed: string[];
}

export const emptyReport = (): Report => ({ counts: {}, skipped: [], notes: [], trashed: [] });

export interface UpsertOps<B> {
  /**
   * The new record's ID; `{ adopted }` when the target had it already (a term of the same name), now
   * updated; `{ replayed }` when the create was made before with this key and body (Idempotent-Replayed).
   */
  create(body: B, idempotencyKey: string): Promise<number | { adopted: number } | { replayed: number }>;
  update(id: number, body: B): Promise<unknown>;
  /** The target record this one already is, when the state does not say (state file lost). */
  find?(): Promise<number | undefined>;
  /** The update's body, when it differs from the create's (the slug is kept as it is at the target). */
  forUpdate?(body: B): B;
  /** The name of a refused body field in the report (a CSV column); the field's own name by default. */
  fieldName?(field: string): string;
}

export interface Upserter {
  readonly report: Report;
  upsert<B>(
    collection: string,
    sourceId: string | number,
    label: string,
    body: B,
    ops: UpsertOps<B>,
  ): Promise<{ outcome: Outcome; id?: number }>;
  counts(collection: string): string;
  /** A copy trashed because its source record is gone (`events:26`). */
  trashed(collection: string, key: string): void;
}

/** The reason a write was refused, in one line. */
function reasonOf(e: CalApiError, name: (field: string) => string = (f) => f): string {
  const params = (e.body.data as { params?: Record<string, string> } | undefined)?.params;
  const detail = params
    ? ` (${Object.entries(params)
        .map(([k, v]) => `${name(k)}: ${v}`)
        .join('; ')})`
    : '';
  return `${e.status} ${e.code}: ${e.message}${detail}`;
}

export function upserter(
  state: ImportState,
  site: string,
  dryRun: boolean,
  report = emptyReport(),
): Upserter {
  let fakeId = 0;
  const count = (collection: string, outcome: Outcome) => {
    const c = (report.counts[collection] ??= {
      created: 0,
      updated: 0,
      unchanged: 0,
      skipped: 0,
      trashed: 0,
    });
    c[outcome]++;
  };
  return {
    report,
    trashed(collection, key) {
      count(collection, 'trashed');
      report.trashed.push(key);
    },
    counts(collection) {
      const c = report.counts[collection];
      return c
        ? `${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged, ${c.skipped} skipped`
        : '';
    },
    async upsert(collection, sourceId, label, body, ops) {
      const key = `${collection}:${sourceId}`;
      const hash = digest(body);
      const known = state.records[key];
      const done = (outcome: Outcome, id?: number) => {
        count(collection, outcome);
        if (id !== undefined && !dryRun) state.records[key] = { id, hash };
        return { outcome, id };
      };
      if (known?.hash === hash) return done('unchanged', known.id);
      try {
        const existing = known?.id ?? (await ops.find?.());
        if (existing !== undefined) {
          if (dryRun) return { outcome: (count(collection, 'updated'), 'updated'), id: existing };
          try {
            await ops.update(existing, ops.forUpdate ? ops.forUpdate(body) : body);
            return done('updated', existing);
          } catch (e) {
            // Deleted at the target since: made again below.
            if (!(e instanceof CalApiError && (e.status === 404 || e.status === 410))) throw e;
          }
        }
        if (dryRun) return { outcome: (count(collection, 'created'), 'created'), id: --fakeId };
        const made = await ops.create(body, `import-${digest([site, key, hash])}`);
        if (typeof made === 'number') return done('created', made);
        return 'adopted' in made ? done('updated', made.adopted) : done('unchanged', made.replayed);
      } catch (e) {
        if (!(e instanceof CalApiError) || e.status >= 500) throw e;
        count(collection, 'skipped');
        report.skipped.push({
          record: `${key} ${JSON.stringify(label)}`,
          reason: reasonOf(e, ops.fieldName),
        });
        return { outcome: 'skipped' };
      }
    },
  };
}

/** The closing report, as lines. */
export function reportLines(report: Report, dryRun: boolean): string[] {
  const lines = [dryRun ? 'Dry run: nothing was written. It would have:' : 'Done:'];
  for (const [collection, c] of Object.entries(report.counts))
    lines.push(
      `  ${collection.padEnd(11)} ${String(c.created).padStart(6)} created ${String(c.updated).padStart(6)} updated ` +
        `${String(c.unchanged).padStart(6)} unchanged ${String(c.skipped).padStart(6)} skipped` +
        (c.trashed ? ` ${String(c.trashed).padStart(6)} trashed` : ''),
    );
  for (const t of report.trashed) lines.push(`  trashed ${t}: gone from the source`);
  for (const s of report.skipped) lines.push(`  skipped ${s.record}: ${s.reason}`);
  for (const n of report.notes) lines.push(`  note ${n.record}: ${n.note}`);
  return lines;
}
