#!/usr/bin/env node
// Several api processes behind one address: Node's cluster module, the primary accepting
// connections and handing them round-robin to the processes. A process that dies is replaced; the
// others keep answering meanwhile. Usage: api-cluster.mjs <processes> <entry> [node args...]
// METRICS_PORTS (comma-separated, one per process) gives each process its own metrics listener; a
// replacement takes the port of the process it replaces, so Prometheus's targets stay right.
import cluster from 'node:cluster';

const [count, entry, ...execArgv] = process.argv.slice(2);
const metricsPorts = (process.env.METRICS_PORTS ?? '').split(',').filter(Boolean);
let stopping = false;

const slots = new Map();
function fork(slot) {
  const worker = cluster.fork(metricsPorts[slot] ? { METRICS_PORT: metricsPorts[slot] } : { METRICS_PORT: '0' });
  slots.set(worker.id, slot);
}

cluster.setupPrimary({ exec: entry, execArgv });
cluster.on('listening', (worker, address) => {
  // The metrics listener is bound by the process itself (exclusive) and reported here too: only the api's port counts.
  if (String(address.port) === String(process.env.PORT ?? 8000)) process.stdout.write(`api process ${worker.process.pid} listening on port ${address.port}\n`);
});
cluster.on('exit', (worker, code, signal) => {
  if (stopping) return;
  process.stdout.write(`api process ${worker.process.pid} exited (${code ?? signal}); starting another\n`);
  const slot = slots.get(worker.id);
  slots.delete(worker.id);
  setTimeout(() => fork(slot), 500);
});
for (let i = 0; i < Number(count); i += 1) fork(i);

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
