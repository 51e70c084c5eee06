/**
 * `npm run bench -- --load`: `clients` concurrent clients, each sending its next request as soon as the
 * previous one is answered, for `seconds` on one URL; requests per second, p50 / p99 and non-200s.
 */
export interface LoadResult {
  name: string;
  requests: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  non200: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

export async function runLoad(
  name: string,
  url: string,
  clients: number,
  seconds: number,
): Promise<LoadResult> {
  const times: number[] = [];
  let non200 = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const ticker = setInterval(() => {
    const s = (performance.now() - t0) / 1000;
    process.stderr.write(`\r  ${name}: ${s.toFixed(0)}/${seconds} s, ${times.length} requests   `);
  }, 1000);
  const client = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        const res = await fetch(url);
        await res.arrayBuffer();
        if (res.status !== 200) non200++;
      } catch {
        non200++;
      }
      times.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  clearInterval(ticker);
  process.stderr.write('\n');
  const elapsed = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  return {
    name,
    requests: times.length,
    rps: times.length / elapsed,
    p50_ms: quantile(times, 0.5),
    p99_ms: quantile(times, 0.99),
    non200,
  };
}
