import { Client } from 'pg';

export interface ListenOptions {
  databaseUrl: string;
  channel: string;
  /** Names the session in pg_stat_activity. */
  applicationName: string;
  reconnectMs: number;
  onNotify(payload: string): void;
  /** LISTEN is in place, after the first connect and after every reconnect: whatever was missed meanwhile must be caught up. */
  onConnect(): void;
  /** The connection is gone (a reconnect follows): notifications may be missed from now on. */
  onLost(err: Error | undefined): void;
}

export interface Listener {
  close(): Promise<void>;
}

/** LISTEN on a dedicated connection (not the pool's: it must stay open and idle), reconnecting on loss. */
export function listen(options: ListenOptions): Listener {
  let connection: Client | null = null;
  let closed = false;
  const connect = async (): Promise<void> => {
    const pg = new Client({ connectionString: options.databaseUrl, application_name: options.applicationName });
    let lost = false;
    // 'error' and 'end' may both fire for one loss: reconnect once.
    const reconnect = (err?: Error) => {
      if (lost || closed) return;
      lost = true;
      connection = null;
      options.onLost(err);
      pg.end().catch(() => undefined);
      setTimeout(() => void connect(), options.reconnectMs).unref();
    };
    pg.on('notification', (message) => options.onNotify(message.payload ?? ''));
    pg.on('error', reconnect);
    pg.on('end', () => reconnect());
    try {
      await pg.connect();
      await pg.query(`LISTEN ${options.channel}`);
      if (closed) return void (await pg.end());
      connection = pg;
      options.onConnect();
    } catch (err) {
      reconnect(err as Error);
    }
  };
  void connect();
  return {
    async close() {
      closed = true;
      await connection?.end().catch(() => undefined);
    },
  };
}
