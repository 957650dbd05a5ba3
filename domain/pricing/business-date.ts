/** Prices are computed on the business calendar of São Paulo, whatever the server's zone. */
export const BUSINESS_TIME_ZONE = 'America/Sao_Paulo';

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const formatter = new Intl.DateTimeFormat('en-US', { timeZone: BUSINESS_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

// The zone's offsets are whole minutes, so the date cannot change within a minute: the last one is remembered.
let lastMinute = NaN;
let lastDate = '';

/** The business date (`YYYY-MM-DD`) at the instant `now`; the caller owns the clock. */
export function businessDate(now: Date): string {
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== lastMinute) {
    const parts = Object.fromEntries(formatter.formatToParts(now).map((p) => [p.type, p.value]));
    // Intl writes years before 1000 with fewer digits (a test clock may stand in year 158).
    lastDate = `${parts.year.padStart(4, '0')}-${parts.month}-${parts.day}`;
    lastMinute = minute;
  }
  return lastDate;
}

/**
 * Every date of a request is checked by the validator and read again by pricing: working it out
 * each time was 3 % of the api's CPU for a 10-receivable simulation. The answer depends on the
 * text alone, so it is remembered for texts of a date's length (nothing longer is a date).
 * Requests name few distinct dates (due dates, today); a full memo starts over rather than grow.
 */
const dayNumbers = new Map<string, number>();
const MEMO_SIZE = 10_000;

/**
 * Day number of a calendar date, or NaN when it is not a real date (2026-02-30) or has year 0000,
 * which Postgres does not have.
 */
export function dayNumber(date: string): number {
  if (date.length !== 10) return parseDayNumber(date);
  let known = dayNumbers.get(date);
  if (known === undefined) {
    known = parseDayNumber(date);
    if (dayNumbers.size >= MEMO_SIZE) dayNumbers.clear();
    dayNumbers.set(date, known);
  }
  return known;
}

/** `setUTCFullYear`, because `Date.UTC` reads years 0–99 as 1900–1999. */
function parseDayNumber(date: string): number {
  const match = ISO_DATE.exec(date);
  if (!match) return NaN;
  const [year, month, day] = match.slice(1).map(Number);
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  const real = year >= 1 && at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day;
  return real ? at.getTime() / DAY_MS : NaN;
}

export function isCalendarDate(date: string): boolean {
  return !Number.isNaN(dayNumber(date));
}

export function addDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
}

const offsetFormatter = new Intl.DateTimeFormat('en-US', { timeZone: BUSINESS_TIME_ZONE, timeZoneName: 'longOffset' });

/**
 * The zone's offset from UTC at `at`, in milliseconds (`GMT-03:00` is -10,800,000). Seconds count:
 * before 1914 São Paulo kept its local mean time, `GMT-03:06:28`.
 */
function offsetMs(at: number): number {
  const name = offsetFormatter.formatToParts(at).find((part) => part.type === 'timeZoneName')!.value;
  const match = /GMT([+-])(\d{2}):(\d{2})(?::(\d{2}))?/.exec(name);
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 3_600 + Number(match[3]) * 60 + Number(match[4] ?? 0)) * 1_000 : 0;
}

/**
 * The instant the business day `date` begins in São Paulo. The offset is read from the zone
 * database, not written down: São Paulo has kept UTC−3 since 2019, but it kept summer time before,
 * and its clocks then jumped at midnight, so a day could begin at 01:00. Of the two instants the
 * offsets either side of that midnight give, the earlier one that is already `date` is the start.
 */
export function startOfBusinessDay(date: string): Date {
  const midnightUtc = dayNumber(date) * DAY_MS;
  const candidates = [offsetMs(midnightUtc), offsetMs(midnightUtc + 14 * 3_600_000)]
    .map((offset) => midnightUtc - offset)
    .filter((at) => businessDate(new Date(at)) === date);
  return new Date(Math.min(...candidates));
}
