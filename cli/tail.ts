import { newEvents, type ListedEvent } from './event-feed';
import { pause } from './pause';
import type { PublicApi } from './public-api';

export interface TailOptions {
  operationId: string;
  /** Keep following after the story so far (the default), or print it and stop. */
  follow: boolean;
  pollMs: number;
  print: (line: string) => void;
  stopped: Promise<void>;
}

/** What an event is about, in a few words: its object, and the amounts and states `data` names. */
function summary(event: ListedEvent): string {
  const facts = ['lifecycle_status', 'status', 'paid_amount_brl', 'outstanding_balance', 'amount_brl', 'remaining']
    .filter((key) => event.data[key] !== undefined && event.data[key] !== null)
    .map((key) => `${key}=${String(event.data[key])}`);
  return [`${event.object_id}#${event.sequence}`, ...facts].join(' ');
}

/** An operation's whole story (`GET /v1/events?operation_id=`), oldest first, then each event as it happens. */
export async function tailOperation(api: PublicApi, options: TailOptions): Promise<void> {
  const seen = new Set<string>();
  let stopping = false;
  void options.stopped.then(() => { stopping = true; });
  for (;;) {
    for (const event of await newEvents(api, seen, { operation_id: options.operationId })) {
      seen.add(event.event_id);
      options.print(`${event.occurred_at}  ${event.event_type.padEnd(30)} ${summary(event)}`);
    }
    if (!options.follow || stopping) return;
    await pause(options.pollMs, options.stopped);
  }
}
