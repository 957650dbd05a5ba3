import { PT_BR } from './messages-pt-br.js';

// Staff read the console in Brazilian Portuguese by default; English is one click away.
// Messages are written in English in the code and looked up in the pt-BR catalogue (gettext's way):
// a message missing there shows in English rather than as a key.
const KEY = 'backoffice.language';
const ZONE = 'America/Sao_Paulo';

export const language = () => (localStorage.getItem(KEY) === 'en' ? 'en' : 'pt-BR');
export const setLanguage = (value) => localStorage.setItem(KEY, value);

/** The message in the chosen language, with `{name}` filled from `params`. */
export function t(text, params = {}) {
  const template = language() === 'en' ? text : PT_BR[text] ?? text;
  return template.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ''));
}

/** Puts each `data-t` element of the static page in the chosen language. */
export function translateStatic(root = document) {
  document.documentElement.lang = language();
  for (const el of root.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
}

const separators = () => (language() === 'en' ? { thousands: ',', decimal: '.' } : { thousands: '.', decimal: ',' });

/** A decimal string as the API gives it, grouped and with the language's separators, without passing through a float. */
function decimal(value, places) {
  const text = String(value);
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
  const { thousands, decimal: point } = separators();
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  const digits = places === undefined ? fraction : fraction.padEnd(places, '0').slice(0, places);
  return `${negative ? '-' : ''}${grouped}${digits ? `${point}${digits}` : ''}`;
}

export const money = (value) => (value === null || value === undefined ? '—' : `R$ ${decimal(value, 2)}`);

/** A percentage with at most four places, trailing zeros dropped. */
export const pct = (value) => (value === null || value === undefined ? '—' : `${decimal(Number(value).toFixed(4).replace(/\.?0+$/, ''))}%`);

const parts = (date, options) => Object.fromEntries(new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, ...options }).formatToParts(date).map((p) => [p.type, p.value]));

/** A moment in São Paulo time: 23/11/2026 18:17, or 23 Nov 2026 18:17 in English. */
export function when(iso) {
  if (!iso) return '—';
  const p = parts(new Date(iso), { day: '2-digit', month: language() === 'en' ? 'short' : '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return language() === 'en' ? `${p.day} ${p.month} ${p.year} ${p.hour}:${p.minute}` : `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** A time of day in São Paulo time, with seconds. */
export function clock(date) {
  const p = parts(date, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  return `${p.hour}:${p.minute}:${p.second}`;
}

/** A calendar date (YYYY-MM-DD, no zone): 23/11/2026, or 23 Nov 2026 in English. */
export function day(value) {
  if (!value) return '—';
  const [year, month, date] = value.split('-');
  if (language() !== 'en') return `${date}/${month}/${year}`;
  return `${date} ${new Date(Date.UTC(Number(year), Number(month) - 1, 15)).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })} ${year}`;
}

/**
 * A date field (YYYY-MM-DD) to the start or end of that day in São Paulo, as the API's date-time.
 * São Paulo has kept UTC−3 all year since 2019 (no daylight saving time).
 */
export function saoPauloDayEdge(value, end) {
  if (!value) return undefined;
  return new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}-03:00`).toISOString();
}
