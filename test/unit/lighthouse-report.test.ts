import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportSource } from '../../bench/report-markdown';
import { type LighthouseResults, MARKERS, renderLighthouseReport } from '../../scripts/lighthouse-report';

/** docs/calendar-page.md carries the Lighthouse scores as `npm run lighthouse` wrote them, never by hand. */
const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('docs/calendar-page.md', () => {
  it('holds exactly what its Lighthouse results file renders', () => {
    const doc = read('docs/calendar-page.md');
    const source = reportSource(doc, MARKERS.begin);
    expect(source).toBe('bench/results/lighthouse.json');
    const results = JSON.parse(read(source!)) as LighthouseResults;
    const start = doc.indexOf(MARKERS.begin);
    const end = doc.indexOf(MARKERS.end) + MARKERS.end.length;
    expect(doc.slice(start, end)).toBe(renderLighthouseReport(results, source!));
  });
});
