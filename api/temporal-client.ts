import { Client, Connection } from '@temporalio/client';
import type { Config } from './config';
import { encryptingDataConverter } from './crypto/payload-codec';

export interface TemporalHandle {
  client: Client;
  connection: Connection;
  namespace: string;
  taskQueue: string;
}

/** A lazy connection: the api starts (and reports `degraded`) even while Temporal is down. */
export function connectTemporal(config: Config['temporal'], payloadKeys: Config['payloadKeys']): TemporalHandle {
  const connection = Connection.lazy({ address: config.address, connectTimeout: 2_000 });
  const client = new Client({ connection, namespace: config.namespace, dataConverter: encryptingDataConverter(payloadKeys) });
  return { client, connection, namespace: config.namespace, taskQueue: config.taskQueue };
}
