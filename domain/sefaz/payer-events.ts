/**
 * The recipient's manifestações on an NF-e (MOC 7.0 §5.4.3): the events its payer registers, read
 * through `NFeDistribuicaoDFe`. Ciência (210210) says only that the payer saw it; the other three
 * are conclusive, and the latest conclusive one registered within 180 days of authorization counts.
 */
export type PayerEvent = 'confirmed' | 'aware' | 'unknown_operation' | 'not_performed';

export const PAYER_EVENT_TYPES: Record<PayerEvent, string> = {
  confirmed: '210200',
  aware: '210210',
  unknown_operation: '210220',
  not_performed: '210240',
};

const BY_TYPE = new Map(Object.entries(PAYER_EVENT_TYPES).map(([event, type]) => [type, event as PayerEvent]));

export function payerEventOfType(tpEvento: string): PayerEvent | null {
  return BY_TYPE.get(tpEvento) ?? null;
}

const CONCLUSIVE: readonly PayerEvent[] = ['confirmed', 'unknown_operation', 'not_performed'];
const DISOWNING: readonly PayerEvent[] = ['unknown_operation', 'not_performed'];
const WINDOW_DAYS = 180;
const DAY_MS = 86_400_000;

export interface PayerEventSeen {
  event: PayerEvent;
  /** `dhEvento`, ISO 8601 with its offset. */
  at: string;
  /** The event's registration status at SEFAZ (135/136: registered). */
  cStat: string;
}

const registered = (seen: PayerEventSeen) => seen.cStat === '135' || seen.cStat === '136';

/**
 * The payer's word: the latest registered conclusive event within the window, or null when there
 * is none (`authorizedAt` null: the window is not known, so every event counts).
 */
export function latestConclusive(events: readonly PayerEventSeen[], authorizedAt: string | null): PayerEventSeen | null {
  const until = authorizedAt === null ? Infinity : Date.parse(authorizedAt) + WINDOW_DAYS * DAY_MS;
  const counted = events.filter((seen) => registered(seen) && CONCLUSIVE.includes(seen.event) && Date.parse(seen.at) <= until);
  return counted.reduce<PayerEventSeen | null>((latest, seen) => (latest === null || Date.parse(seen.at) >= Date.parse(latest.at) ? seen : latest), null);
}

export const isDisowning = (seen: PayerEventSeen | null): boolean => seen !== null && DISOWNING.includes(seen.event);
