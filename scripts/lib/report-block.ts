/**
 * A document's generated part, between two marker lines, written again from a results file while the
 * hand-written text around it is kept: the bench's reports (bench/report-markdown.ts) and the
 * Lighthouse scores (scripts/lighthouse-report.ts).
 */
export interface Markers {
  begin: string;
  end: string;
}

/**
 * `existing` with its generated part (between `markers`) replaced by `block`; a document without one
 * gets it appended.
 */
export function withBlock(existing: string | undefined, block: string, markers: Markers): string {
  if (existing === undefined) return `# Benchmarks\n\n${block}\n`;
  const start = existing.indexOf(markers.begin);
  const end = existing.indexOf(markers.end, start);
  if (start < 0 || end < 0) return `${existing.trimEnd()}\n\n${block}\n`;
  return existing.slice(0, start) + block + existing.slice(end + markers.end.length);
}

/** The results file a document's generated part (from `begin`) was rendered from, if it has one. */
export function blockSource(document: string, begin: string): string | undefined {
  const start = document.indexOf(begin);
  if (start < 0) return undefined;
  return /source=(\S+?):/.exec(document.slice(start, document.indexOf('\n', start)))?.[1];
}
