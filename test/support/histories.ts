import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal as proto } from '@temporalio/proto';
import { operationWorkflowId } from '../../domain/workflow-ids';
import type { Payload } from '@temporalio/common';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { EncryptionCodec } from '../../platform/crypto/payload-codec';
import { temporal } from './temporal';
import { testConfig } from './stack';

/** Recorded lifecycle histories, replayed by test/workflows/replay.test.ts against the current workflow code. */
export const HISTORIES_DIR = join(__dirname, '..', 'workflows', 'histories');

const { History } = proto.api.history.v1;
/** Readable JSON of the protobuf (enums by name, 64-bit integers and bytes as strings), and back. */
const JSON_FORM = { longs: String, enums: String, bytes: String, defaults: false };
export const historyToJson = (history: proto.api.history.v1.IHistory): string =>
  JSON.stringify(History.toObject(History.fromObject(history), JSON_FORM), null, 1);
export const historyFromJson = (json: string): proto.api.history.v1.History => History.fromObject(JSON.parse(json));

const isPayload = (value: object): value is Payload => 'data' in value && 'metadata' in value;

/**
 * Every payload opened with the run's key ring, which dies with the run: the committed histories
 * replay without it, and their test can read that no payload carries a signing link.
 */
async function opened<T>(value: T, codec: EncryptionCodec): Promise<T> {
  if (Array.isArray(value)) return Promise.all(value.map((item) => opened(item, codec))) as Promise<T>;
  if (!value || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  if (isPayload(value)) return (await codec.decode([value]))[0] as T;
  const entries = await Promise.all(Object.entries(value).map(async ([key, inner]) => [key, await opened(inner, codec)]));
  return Object.fromEntries(entries) as T;
}

/**
 * The lifecycle tests drive each path; with RECORD_HISTORIES=1 (`npm run histories:record`) they
 * also save the history of the operation's workflow: `<name>.json` for its first run and
 * `<name>.run<n>.json` for each run it continued as. Otherwise nothing: a test run never rewrites
 * the committed histories.
 */
export async function recordHistory(name: string, operationId: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const client = await temporal();
  const codec = new EncryptionCodec(new CipherRing(testConfig().payloadKeys));
  const runs = [];
  // From the latest run back: each run's start names the run it continued.
  for (let runId: string | undefined; ;) {
    const history = await opened(await client.workflow.getHandle(operationWorkflowId(operationId), runId).fetchHistory(), codec);
    runs.unshift(history);
    runId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
    if (!runId) break;
  }
  mkdirSync(HISTORIES_DIR, { recursive: true });
  runs.forEach((history, i) => writeFileSync(join(HISTORIES_DIR, `${name}${i === 0 ? '' : `.run${i + 1}`}.json`), `${historyToJson(history)}\n`));
}
