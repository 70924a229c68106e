/**
 * A strict parser of the Prometheus text exposition format (version 0.0.4), written from the format's description
 * and independent of prom-client, so a test reads /metrics the way a scraper does. (The npm parser
 * parse-prometheus-text-format merges every labelled histogram series into one, so it cannot check ours.)
 * It throws on anything a scraper would refuse: a malformed line, a sample before its TYPE, a family's samples
 * split apart, a histogram whose buckets decrease or whose +Inf bucket is not its count.
 */
export interface Sample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  /** Counters, gauges: one per series. */
  readonly samples: Sample[];
  /** Histograms: one per series (labels without `le`). */
  readonly histograms: { labels: Record<string, string>; buckets: [number, number][]; sum: number; count: number }[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})?\\s+(\\S+)(?:\\s+(-?\\d+))?$`);
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;

// Prometheus reads values with Go's strconv.ParseFloat, which takes NaN and Inf in any case: prom-client writes the
// event-loop lag of a scrape that follows the last one within the monitor's 10 ms resolution as `Nan`.
function parseValue(text: string, line: string): number {
  const lower = text.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Infinity;
  if (lower === '-inf') return -Infinity;
  if (lower === 'nan') return NaN;
  const v = Number(text);
  if (text.trim() === '' || Number.isNaN(v)) throw new Error(`bad value in: ${line}`);
  return v;
}

function parseLabels(text: string | undefined, line: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (text === undefined || text.trim() === '') return out;
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const m = LABEL.exec(text);
    if (m === null) throw new Error(`bad labels in: ${line}`);
    if (m[1]! in out) throw new Error(`repeated label ${m[1]} in: ${line}`);
    out[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    if (m[3] === '') break;
  }
  return out;
}

const key = (labels: Record<string, string>): string => JSON.stringify(Object.entries(labels).sort());

export function parsePrometheus(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const done = new Set<string>();
  let current: MetricFamily | undefined;
  const family = (name: string): MetricFamily => {
    let f = families.get(name);
    if (!f) {
      if (done.has(name)) throw new Error(`family ${name} appears twice`);
      f = { name, help: '', type: 'untyped', samples: [], histograms: [] };
      families.set(name, f);
    }
    if (current && current !== f) done.add(current.name);
    current = f;
    return f;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) continue; // a plain comment
      const f = family(m[2]!);
      if (m[1] === 'HELP') (f as { help: string }).help = m[3]!;
      else {
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(m[3]!)) throw new Error(`bad TYPE: ${line}`);
        if (f.samples.length > 0 || f.histograms.length > 0) throw new Error(`TYPE after samples: ${line}`);
        (f as { type: string }).type = m[3]!;
      }
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`malformed sample line: ${line}`);
    const [, name, labelText, valueText] = m;
    const labels = parseLabels(labelText, line);
    const value = parseValue(valueText!, line);
    const base = current && name!.startsWith(current.name) && current.type === 'histogram' ? current : undefined;
    if (base) {
      const suffix = name!.slice(base.name.length);
      const { le, ...rest } = labels;
      let h = base.histograms.find((x) => key(x.labels) === key(rest));
      if (!h) base.histograms.push((h = { labels: rest, buckets: [], sum: NaN, count: NaN }));
      if (suffix === '_bucket') {
        if (le === undefined) throw new Error(`bucket without le: ${line}`);
        h.buckets.push([parseValue(le, line), value]);
      } else if (suffix === '_sum') h.sum = value;
      else if (suffix === '_count') h.count = value;
      else throw new Error(`unexpected sample in histogram ${base.name}: ${line}`);
      continue;
    }
    const f: MetricFamily = current !== undefined && current.name === name ? current : family(name!);
    if (f.type === 'histogram') throw new Error(`histogram sample without suffix: ${line}`);
    if (f.samples.some((s) => key(s.labels) === key(labels))) throw new Error(`duplicate series: ${line}`);
    f.samples.push({ labels, value });
  }
  for (const f of families.values()) {
    for (const h of f.histograms) {
      for (let i = 1; i < h.buckets.length; i++) {
        if (!(h.buckets[i]![0] > h.buckets[i - 1]![0]) || h.buckets[i]![1] < h.buckets[i - 1]![1])
          throw new Error(`${f.name}: buckets out of order or decreasing`);
      }
      const inf = h.buckets.at(-1);
      if (!inf || inf[0] !== Infinity || inf[1] !== h.count || Number.isNaN(h.sum))
        throw new Error(`${f.name} ${key(h.labels)}: +Inf bucket, count and sum disagree`);
    }
  }
  return families;
}

/** The sum of a family's values (counters, gauges) or counts (histograms) over the series whose labels include `where`. */
export function sumOf(families: Map<string, MetricFamily>, name: string, where: Record<string, string> = {}): number {
  const f = families.get(name);
  if (!f) return 0;
  const match = (labels: Record<string, string>): boolean => Object.entries(where).every(([k, v]) => labels[k] === v);
  return f.type === 'histogram'
    ? f.histograms.filter((h) => match(h.labels)).reduce((a, h) => a + h.count, 0)
    : f.samples.filter((s) => match(s.labels)).reduce((a, s) => a + s.value, 0);
}
