// Preloaded (NODE_OPTIONS=--import) into a process of the end-to-end bench when BENCH_PROFILE_DIR
// is set: every thread of the process (the worker's workflow thread too) runs the V8 sampling
// profiler for BENCH_PROFILE_SECONDS (after BENCH_PROFILE_DELAY_SECONDS) and then writes DIR/<pid>-<thread>.cpuprofile. Time-bounded
// rather than at exit, because a worker thread is terminated without an exit event of its own.
import inspector from 'node:inspector';
import fs from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const seconds = Number(process.env.BENCH_PROFILE_SECONDS ?? 60);
  const delay = Number(process.env.BENCH_PROFILE_DELAY_SECONDS ?? 0);
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  setTimeout(() => session.post('Profiler.start'), delay * 1000).unref();
  setTimeout(() => {
    session.post('Profiler.stop', (err, result) => {
      if (err) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${process.pid}-${threadId}.cpuprofile`), JSON.stringify(result.profile));
    });
  }, (delay + seconds) * 1000).unref();
}
