#!/usr/bin/env node
// Prepares a Temporal server for this service: the namespace (a server on SQL persistence starts
// with none) and the search attributes of scripts/lib/search-attributes.json, read at run time.
// Idempotent. `npm run cluster` calls it; docker-compose runs it as a job
// (`node scripts/prepare-temporal.mjs`, with TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';

// temporal.api.enums.v1.IndexedValueType
const INDEXED_VALUE_TYPES = { Text: 1, Keyword: 2, Int: 3, Double: 4, Bool: 5, Datetime: 6, KeywordList: 7 };

async function retry(what, attempt, ms = 90_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${what}: ${err.message}`);
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}

export async function prepareTemporal({ address, namespace = 'default' }) {
  const connection = await retry('connecting to Temporal', () => Connection.connect({ address }));
  try {
    await retry('Temporal health', () => connection.workflowService.getSystemInfo({}));
    try {
      await connection.workflowService.describeNamespace({ namespace });
    } catch {
      await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: { seconds: 72 * 3600 } });
    }
    const wanted = JSON.parse(readFileSync(new URL('./lib/search-attributes.json', import.meta.url), 'utf8'));
    for (const [name, type] of Object.entries(wanted)) {
      if (!(type in INDEXED_VALUE_TYPES)) throw new Error(`search attribute ${name}: unknown type ${type}`);
    }
    await retry('registering search attributes', async () => {
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
      const missing = Object.entries(wanted).filter(([name]) => !(name in customAttributes));
      if (missing.length === 0) return;
      await connection.operatorService.addSearchAttributes({
        namespace, searchAttributes: Object.fromEntries(missing.map(([name, type]) => [name, INDEXED_VALUE_TYPES[type]])),
      });
      throw new Error('registered; checking again');
    });
  } finally {
    await connection.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await prepareTemporal({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233', namespace: process.env.TEMPORAL_NAMESPACE ?? 'default' });
  process.stdout.write('Temporal namespace and search attributes ready\n');
}
