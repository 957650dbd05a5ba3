/**
 * Summarises V8 .cpuprofile files (from bench/support/cpu-profile.mjs): self time by function and by package or
 * source file, so a profile of the worker or the api reads as "where the CPU went".
 *
 *   npx tsx bench/lifecycle/profile-summary.ts DIR [top]
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

function where(url: string): string {
  if (!url) return '(native / vm)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '').replace(/^.*\/work\/main\//, '');
}

const dir = process.argv[2];
const top = Number(process.argv[3] ?? 25);
for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile: Profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fns = new Map<string, number>();
  const places = new Map<string, number>();
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id)!;
    const place = where(callFrame.url);
    const fn = `${callFrame.functionName || '(anonymous)'} ${place}:${callFrame.lineNumber + 1}`;
    fns.set(fn, (fns.get(fn) ?? 0) + us);
    places.set(place, (places.get(place) ?? 0) + us);
  }
  const idle = [...self].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((a, [, us]) => a + us, 0);
  const busy = total - idle;
  const line = (name: string, us: number) => `  ${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${name}`;
  process.stdout.write(`\n${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1000).toFixed(0)} ms busy\n by place:\n`);
  for (const [name, us] of [...places].sort((a, b) => b[1] - a[1]).slice(0, top)) if (name !== '(native / vm)' || us) process.stdout.write(`${line(name, us)}\n`);
  process.stdout.write(' by function:\n');
  for (const [name, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${line(name, us)}\n`);
}
