import { isCalendarDate } from './pricing/business-date';

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 date-time that Postgres `timestamptz` accepts as written: a real calendar date and
 * time, and a UTC offset within ±15:59 (RFC 3339 allows up to ±23:59, Postgres does not).
 */
export function isTimestamp(value: string): boolean {
  const match = RFC3339.exec(value);
  if (!match) return false;
  const [, date, hour, minute, second, offsetHour = '00', offsetMinute = '00'] = match;
  return isCalendarDate(date) && Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 60
    && Number(offsetHour) <= 15 && Number(offsetMinute) <= 59;
}
