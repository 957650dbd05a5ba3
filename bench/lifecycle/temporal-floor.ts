/**
 * The Temporal dev server's floor on this machine, with nothing of ours around it: an in-memory
 * dev server (the flags the benches use), one worker in this process with trivial workflows
 * (floor-workflows.ts), and N workflows run to completion by C concurrent callers. For each shape
 * it reports workflows per second, the server's CPU per workflow and this process's (client +
 * worker) CPU per workflow. The end-to-end bench's operations are made of these pieces.
 *
 *   npx tsx bench/lifecycle/temporal-floor.ts [workflows per shape, default 400] [concurrency, default 16]
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { byCommandLine, byPid, cpuBetween, readCpu } from '../creation/cpu';

const COUNT = Number(process.argv[2] ?? 400);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const ROOT = path.resolve(__dirname, '..', '..');

async function main(): Promise<void> {
  const lib = (file: string) => import(pathToFileURL(path.join(ROOT, 'scripts', file)).href);
  const { ensureTemporal } = await lib('install-temporal.mjs');
  const { startTemporalDev } = await lib('lib/temporal.mjs');
  const { freePort } = await lib('lib/ports.mjs');
  const port = await freePort();
  const temporal = await startTemporalDev({ binary: ensureTemporal(), port, uiPort: await freePort(), headless: true });
  // The port opens before the frontend is healthy: retry for a while.
  let connection: NativeConnection | undefined;
  for (let attempt = 0; !connection; attempt += 1) {
    try {
      connection = await NativeConnection.connect({ address: temporal.address });
    } catch (err) {
      if (attempt >= 60) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  const client = new Client({ connection });
  const meter = { temporal: byCommandLine(new RegExp(`start-dev .*--port ${port} `)), here: byPid(process.pid) };
  const worker = await Worker.create({
    connection, taskQueue: 'floor', workflowsPath: require.resolve('./floor-workflows'), activities: { noop: async () => 'done' },
  });
  const running = worker.run();

  const rows: string[] = [];
  async function shape(name: string, workflowType: string, args: unknown[], workflowsEach: number, wait: boolean): Promise<void> {
    const before = readCpu(meter);
    const started = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < COUNT) {
        next += 1;
        const handle = await client.workflow.start(workflowType, { taskQueue: wait ? 'floor' : 'floor-nobody', workflowId: `${workflowType}-${wait}-${next}`, args });
        if (wait) await handle.result();
      }
    }));
    const seconds = (performance.now() - started) / 1000;
    // Children keep running a little after their parent completed: let them settle into the window.
    if (workflowsEach > 1) await new Promise((resolve) => setTimeout(resolve, 3_000));
    const cpu = cpuBetween(before, readCpu(meter));
    rows.push(`| ${name} | ${COUNT} | ${(COUNT / seconds).toFixed(1)} | ${(cpu.temporal / COUNT).toFixed(1)} | ${(cpu.here / COUNT).toFixed(1)} |`);
    process.stderr.write(`${rows[rows.length - 1]}\n`);
  }

  await shape('start only (no worker polls the queue)', 'emptyWorkflow', [], 1, false);
  await shape('start → 1 workflow task → completed', 'emptyWorkflow', [], 1, true);
  await shape('start → activity → 2nd workflow task → completed', 'oneActivity', [], 1, true);
  await shape('start → 1 workflow task with a local activity → completed', 'oneLocalActivity', [], 1, true);
  await shape('parent starts 10 children with a 30-day timer (per parent)', 'parentOfChildren', [10], 11, true);
  worker.shutdown();
  await running;
  await connection.close();
  await temporal.stop();
  process.stdout.write([
    `Concurrency ${CONCURRENCY}; CPU from /proc (server) and process.cpuUsage-equivalent for this process (client + worker).`,
    '| shape | workflows | per second | server CPU ms each | client + worker CPU ms each |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n') + '\n');
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
