import { t } from './i18n.js';

export { money, when } from './i18n.js';

// Builds elements from data; text always goes in as text, never as markup.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === 'class') el.className = value;
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function table(caption, headers, rows) {
  return h('table', {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, headers.map((text) => h('th', { scope: 'col' }, text)))),
    h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: headers.length, class: 'empty' }, t('Nothing here.')))));
}

export const row = (...cells) => h('tr', {}, cells.map((cell) => h('td', {}, cell)));

export function definitionList(pairs) {
  return h('dl', {}, pairs.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value ?? '—')]));
}

export const badge = (status, label = status) => h('span', { class: `badge s-${String(status).toLowerCase()}` }, label);

export function duration(seconds) {
  const d = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (d) return `${d} d ${hours} h`;
  if (hours) return `${hours} h ${minutes} min`;
  return `${minutes} min`;
}

/** Replaces the page and moves focus to its heading, so keyboard and screen-reader users land on it. */
export function show(...nodes) {
  const main = document.getElementById('main');
  main.replaceChildren(...nodes.filter((node) => node !== null && node !== undefined && node !== false));
  const heading = main.querySelector('h1');
  if (heading) { heading.tabIndex = -1; heading.focus(); }
}

export function say(text, kind = 'info') {
  const status = document.getElementById('status');
  status.className = kind;
  status.textContent = text;
}
