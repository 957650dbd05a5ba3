/** One scrape of a metrics listener: each series (`name{labels}` as written) and its value. */
export async function scrape(url: string): Promise<Map<string, number>> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  const series = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

/** The value of a series named by its metric and labels (in any order), 0 when absent. */
export function valueOf(series: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let total = 0;
  for (const [key, value] of series) {
    const brace = key.indexOf('{');
    if ((brace < 0 ? key : key.slice(0, brace)) !== name) continue;
    const present = brace < 0 ? [] : key.slice(brace + 1, -1).split(',');
    if (wanted.every((pair) => present.includes(pair))) total += value;
  }
  return total;
}
