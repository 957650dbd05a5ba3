// Preloaded (NODE_OPTIONS=--import) into a bench process when BENCH_PROFILE_DIR is set: Node 20
// refuses --cpu-prof in NODE_OPTIONS, so this runs the V8 sampling profiler itself, in every thread
// of the process (a worker's workflow thread too), and writes DIR/<pid>-<thread>.cpuprofile (open it
// in Chrome DevTools or speedscope, or summarise it with bench/lifecycle/profile-summary.ts).
// By default the profile covers the whole process and is written at exit. With BENCH_PROFILE_SECONDS
// (after BENCH_PROFILE_DELAY_SECONDS) it is written when that window ends instead: a worker thread
// is terminated without an exit event of its own.
import inspector from 'node:inspector';
import fs from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const seconds = process.env.BENCH_PROFILE_SECONDS;
  const delay = Number(process.env.BENCH_PROFILE_DELAY_SECONDS ?? 0);
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  setTimeout(() => session.post('Profiler.start'), delay * 1000).unref();
  const write = () => session.post('Profiler.stop', (err, result) => {
    if (err) return;
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${process.pid}-${threadId}.cpuprofile`), JSON.stringify(result.profile));
  });
  if (seconds) setTimeout(write, (delay + Number(seconds)) * 1000).unref();
  else process.on('exit', write);
}
