// Preloaded into the api (NODE_OPTIONS=--import) by `bench:creation --profile-api DIR`: Node 20
// refuses --cpu-prof in NODE_OPTIONS, so this starts the V8 profiler itself and writes
// DIR/api-<pid>.cpuprofile when the process exits (open it in Chrome DevTools or speedscope).
import inspector from 'node:inspector';
import fs from 'node:fs';
import path from 'node:path';

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (err, result) => {
      if (err) return;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `api-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
