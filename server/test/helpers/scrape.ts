import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';

/**
 * A scrape read by a Prometheus text-format parser from the registry (not ours): it throws on
 * a line a Prometheus server would not take. Shared with the end-to-end tests.
 *
 * The package folds the labelled series of a histogram into one (it reads unlabelled ones
 * only), so the families answered are parsed again without the histograms' HELP and TYPE lines: each
 * `_bucket`, `_sum` and `_count` series is then a family of its own with its labels
 * (`kol_video_stage_duration_seconds_count{stage="images"}`).
 */
export function parseScrape(text: string): ParsedFamily[] {
  parsePrometheusTextFormat(text);
  const folded = new Set(
    [...text.matchAll(/^# TYPE (\S+) (histogram|summary)$/gm)].map((match) => match[1]),
  );
  const plain = text
    .split('\n')
    .filter((line) => !(/^# (HELP|TYPE) /.test(line) && folded.has(line.split(' ')[2])))
    .join('\n');
  return parsePrometheusTextFormat(plain);
}

/**
 * The value of a metric in a scrape, summed over the samples whose labels include `labels`: a
 * counter's or gauge's value; for a histogram name its `_count` (`x_count`). 0 when none.
 */
export function metricValue(
  families: ParsedFamily[],
  name: string,
  labels: Record<string, string> = {},
): number {
  let total = 0;
  // Interleaved series (a histogram's _bucket, _sum, _count) come as several families of a name.
  const samples = families.filter((metric) => metric.name === name).flatMap((m) => m.metrics);
  for (const sample of samples) {
    const own = sample.labels ?? {};
    if (Object.entries(labels).every(([key, value]) => own[key] === value)) {
      total += Number(sample.value ?? 0);
    }
  }
  return total;
}

/** GETs a metrics endpoint and parses it (a Bearer token for the API's own /metrics). */
export async function scrape(url: string, token?: string): Promise<ParsedFamily[]> {
  const response = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return parseScrape(await response.text());
}

/** The test app's own /metrics, with the admin token (see test-app.ts). */
export async function scrapeApp(
  app: { inject: (options: object) => Promise<{ statusCode: number; body: string }> },
  token: string,
): Promise<ParsedFamily[]> {
  const response = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.statusCode !== 200) throw new Error(`/metrics answered ${response.statusCode}`);
  return parseScrape(response.body);
}
