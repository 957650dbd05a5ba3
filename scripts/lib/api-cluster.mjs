#!/usr/bin/env node
// Several api processes behind one address: Node's cluster module, the primary accepting
// connections and handing them round-robin to the processes. A process that dies is replaced; the
// others keep answering meanwhile. Usage: api-cluster.mjs <processes> <entry> [node args...]
import cluster from 'node:cluster';

const [count, entry, ...execArgv] = process.argv.slice(2);
let stopping = false;

cluster.setupPrimary({ exec: entry, execArgv });
cluster.on('listening', (worker, address) => {
  process.stdout.write(`api process ${worker.process.pid} listening on port ${address.port}\n`);
});
cluster.on('exit', (worker, code, signal) => {
  if (stopping) return;
  process.stdout.write(`api process ${worker.process.pid} exited (${code ?? signal}); starting another\n`);
  setTimeout(() => cluster.fork(), 500);
});
for (let i = 0; i < Number(count); i += 1) cluster.fork();

function stop() {
  stopping = true;
  for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM');
  const check = setInterval(() => {
    if (Object.keys(cluster.workers).length === 0) process.exit(0);
  }, 100);
  setTimeout(() => { clearInterval(check); process.exit(0); }, 10_000).unref();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
