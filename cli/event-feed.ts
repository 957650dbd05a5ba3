import type { PublicApi } from './public-api';

/** An event as `GET /v1/events` lists it: the envelope its webhook delivery carries. */
export interface ListedEvent {
  event_type: string;
  event_id: string;
  occurred_at: string;
  object_id: string;
  sequence: number;
  data: Record<string, unknown>;
}

const PAGE = 100;
/** How far back one poll walks at most (a listener away for longer catches up over several polls). */
const MAX_PAGES = 20;
/** Real time is below any test clock's future: the second window starts just above now. */
const NOW_MARGIN_MS = 60_000;

/**
 * New events of the originator, oldest first. The list is ordered by `occurred_at`, and an event on
 * a test clock occurs at the clock's time, days ahead of real time: a cursor on such an event would
 * pass over every real-time event recorded after it. So a poll reads two windows newest first, the
 * whole list and the list below now, each down to the first page holding an event already seen, and
 * keeps what was not seen.
 */
export async function newEvents(api: PublicApi, seen: ReadonlySet<string>, filter: Record<string, string>): Promise<ListedEvent[]> {
  const found = new Map<string, ListedEvent>();
  const windows: Record<string, string>[] = [{}, { 'created[lt]': new Date(Date.now() + NOW_MARGIN_MS).toISOString() }];
  for (const window of windows) {
    let after: string | null = null;
    for (let read = 0; read < MAX_PAGES; read += 1) {
      const query: URLSearchParams = new URLSearchParams({ ...filter, ...window, limit: String(PAGE), ...(after ? { starting_after: after } : {}) });
      const listed: { items: ListedEvent[]; has_more: boolean } = await api.get(`/v1/events?${query}`);
      const { items, has_more: more } = listed;
      for (const event of items) if (!seen.has(event.event_id)) found.set(event.event_id, event);
      if (!more || items.length === 0 || items.some((event) => seen.has(event.event_id))) break;
      after = items[items.length - 1].event_id;
    }
  }
  return [...found.values()].sort((a, b) => Date.parse(a.occurred_at) - Date.parse(b.occurred_at)
    || (a.object_id === b.object_id ? a.sequence - b.sequence : 0));
}

/** Every event a poll would find now: what a listener started afresh treats as already seen, so it forwards only what happens next. */
export async function currentEventIds(api: PublicApi, filter: Record<string, string>): Promise<string[]> {
  return (await newEvents(api, new Set(), filter)).map((event) => event.event_id);
}
