import { currentEventIds, newEvents } from './event-feed';
import { forwardEvent } from './forward';
import { ListenState } from './listen-state';
import { pause } from './pause';
import type { PublicApi } from './public-api';

export interface ListenOptions {
  forwardTo: string;
  /** Only these kinds; every kind when empty. */
  events: string[];
  stateFile: string;
  clientId: string;
  pollMs: number;
  print: (line: string) => void;
  /** Resolves when the listener is to stop (Ctrl-C). */
  stopped: Promise<void>;
}

/**
 * Follows the originator's events and forwards each, signed, to a local URL, one line per event
 * with the local answer. Each is forwarded once, in the order it occurred (at least once should
 * the process die between the answer and the write of the state file): the local receiver's
 * answer is printed, never retried.
 */
export async function listen(api: PublicApi, options: ListenOptions): Promise<void> {
  const { print, stopped } = options;
  const filter: Record<string, string> = options.events.length > 0 ? { type: options.events.join(',') } : {};
  const state = ListenState.open(options.stateFile, api.url, options.clientId);
  if (state.fresh) state.remember(await currentEventIds(api, filter));
  print(`Ready. Forwarding ${options.events.length > 0 ? options.events.join(', ') : 'every event'} of ${api.url} to ${options.forwardTo}`);
  print(`Webhook signing secret: ${state.secret}  (kept with the cursor in ${options.stateFile})`);
  let stopping = false;
  void stopped.then(() => { stopping = true; });
  while (!stopping) {
    for (const event of await newEvents(api, state.seen(), filter)) {
      const answer = await forwardEvent(options.forwardTo, state.secret, event);
      state.remember([event.event_id]);
      print(`${event.occurred_at}  ${event.event_type.padEnd(30)} ${event.event_id}  --> ${'status' in answer ? answer.status : `error ${answer.error}`}`);
    }
    await pause(options.pollMs, stopped);
  }
}
