/**
 * `npm run lighthouse`'s results as Markdown: rendered from the results file alone (what the run writes
 * to bench/results/lighthouse.json), so a saved run can be rendered again (`--from`) and a test can check
 * that the document's table is what its results file says. The generated part sits between two markers;
 * the hand-written text around it is kept (bench/report-markdown.ts's withReport).
 */
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

/** The target of issue 29: at least this in every category. */
export const TARGET = 95;

export interface LighthouseRun {
  /** What was measured: "calendar" or "event page". */
  page: string;
  /** The path on the stack (`/`, `/event/<slug>/`). */
  path: string;
  preset: 'mobile' | 'desktop';
  /** 0-100 per category. */
  scores: Record<Category, number>;
  /** The audits that cost points (score below 1, weighted in a category), worst first. */
  losses: Array<{ id: string; title: string; score: number; categories: Category[] }>;
  /**
   * What the performance score is made of, as measured (ms; layout shift unitless), and Lighthouse's CPU
   * benchmark of the machine then (higher is faster): its throttling scales with it. Older files lack them.
   */
  metrics?: { fcp: number; lcp: number; tbt: number; cls: number };
  benchmarkIndex?: number;
}

export interface LighthouseResults {
  runs: LighthouseRun[];
  run: {
    commit: string;
    date: string;
    node: string;
    lighthouse: string;
    chromium: string;
    url: string;
    /** The machine's one-minute load average when the run began. */
    load?: number;
  };
}

export const MARKERS = {
  begin: '<!-- lighthouse-report:begin',
  end: '<!-- lighthouse-report:end -->',
};

const LABEL: Record<Category, string> = {
  performance: 'Performance',
  accessibility: 'Accessibility',
  'best-practices': 'Best practices',
  seo: 'SEO',
};

const mark = (n: number) => (n >= TARGET ? `${n}` : `**${n}**`);

/** The table and the audits that cost points, between the markers. */
export function renderLighthouseReport(r: LighthouseResults, source: string): string {
  const rows = r.runs.map(
    (x) =>
      `| ${x.page} (\`${x.path}\`) | ${x.preset} | ${CATEGORIES.map((c) => mark(x.scores[c])).join(' | ')} |`,
  );
  const losses = r.runs.flatMap((x) =>
    x.losses.length
      ? [
          `- ${x.page}, ${x.preset}: ${x.losses
            .slice(0, 6)
            .map((l) => `${l.title} (\`${l.id}\`, ${Math.round(l.score * 100)})`)
            .join('; ')}`,
        ]
      : [],
  );
  const measured = r.runs.filter((x) => x.metrics);
  const metrics = measured.map(
    (x) =>
      `| ${x.page} | ${x.preset} | ${(x.metrics!.fcp / 1000).toFixed(1)} s | ${(x.metrics!.lcp / 1000).toFixed(1)} s | ${Math.round(x.metrics!.tbt)} ms | ${x.metrics!.cls.toFixed(3)} | ${x.benchmarkIndex === undefined ? '' : Math.round(x.benchmarkIndex)} |`,
  );
  const machine =
    r.run.load === undefined ? '' : ` The machine's load average was ${r.run.load.toFixed(2)} when it began.`;
  return [
    `${MARKERS.begin} source=${source}: written by \`npm run lighthouse\`; edits between these markers are overwritten -->`,
    '',
    `From \`${source}\`: commit \`${r.run.commit}\`, ${r.run.date}, Lighthouse ${r.run.lighthouse}, ${r.run.chromium}, Node ${r.run.node}, against ${r.run.url}. Scores below ${TARGET} in bold.${machine}`,
    '',
    `| page | preset | ${CATEGORIES.map((c) => LABEL[c]).join(' | ')} |`,
    `|---|---|${CATEGORIES.map(() => '---:').join('|')}|`,
    ...rows,
    '',
    ...(metrics.length
      ? [
          "What the performance scores are made of (Lighthouse's simulated phone or desktop), and Lighthouse's CPU benchmark of the machine (higher is faster; its throttling scales with it):",
          '',
          '| page | preset | First contentful paint | Largest contentful paint | Total blocking time | Layout shift | CPU benchmark |',
          '|---|---|---:|---:|---:|---:|---:|',
          ...metrics,
          '',
        ]
      : []),
    losses.length ? 'Audits that cost points (their score):' : 'No audit cost points.',
    ...(losses.length ? ['', ...losses] : []),
    '',
    MARKERS.end,
  ].join('\n');
}
