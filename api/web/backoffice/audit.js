import { api, query } from './api.js';
import { attempt, mayUse } from './actions.js';
import { h, row, show, table, when } from './dom.js';
import { saoPauloDayEdge, t } from './i18n.js';

const PAGE_SIZE = 50;
const AUDIT_SCOPES = ['backoffice:admin', 'backoffice:decide'];

export const canReadAudit = () => mayUse(AUDIT_SCOPES);

const compact = (value) => (value === null || value === undefined ? '' : JSON.stringify(value));

function actorCell(actor) {
  const name = actor.email ?? actor.client_id ?? actor.id;
  return h('a', { href: `#/audit${query({ actor_id: actor.id })}`, title: t('Entries of {who}', { who: name }) }, name);
}

function targetCell(target) {
  if (!target) return '—';
  if (target.type === 'operation') return h('a', { href: `#/operations/${target.id}` }, `${target.type} ${target.id}`);
  return `${target.type} ${target.id}`;
}

/** Audit rows, as the Audit page and the operation page show them: who, what, on what, from where, what changed. */
export function auditTable(caption, items) {
  return table(caption, [t('When'), t('Who'), t('Action'), t('Target'), t('IP'), t('Request id'), t('Before'), t('After')],
    items.map((e) => row(
      h('time', { datetime: e.occurred_at }, when(e.occurred_at)), actorCell(e.actor), h('code', {}, e.action), targetCell(e.target),
      e.ip ?? '—', h('code', {}, e.request_id ?? '—'), h('code', { class: 'change' }, compact(e.before)), h('code', { class: 'change' }, compact(e.after)))));
}

/** This page of rows as the API's CSV, saved by the browser. */
async function saveCsv(search) {
  await attempt(async () => {
    const blob = await api.download(`/v1/backoffice/audit-events.csv${search}`);
    const link = h('a', { href: URL.createObjectURL(blob), download: 'audit-events.csv' });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  });
}

/** The audit trail, newest first, filtered by the fields in the address; older pages by cursor. */
export async function auditView(params) {
  const filters = Object.fromEntries(['action', 'actor_id', 'target_id', 'from', 'to'].map((name) => [name, params.get(name) ?? '']));
  const cursor = params.get('cursor') ?? '';
  await attempt(async () => {
    const search = query({
      action: filters.action, actor_id: filters.actor_id, target_id: filters.target_id,
      'created[gte]': saoPauloDayEdge(filters.from, false), 'created[lt]': saoPauloDayEdge(filters.to, true),
      limit: PAGE_SIZE, cursor,
    });
    const page = await api.get(`/v1/backoffice/audit-events${search}`);
    const field = (name, label, attrs = {}) => h('p', { class: 'field' }, h('label', { for: `a-${name}` }, label), h('input', { id: `a-${name}`, name, value: filters[name], ...attrs }));
    const form = h('form', { class: 'filters', 'aria-label': t('Filter the audit trail') },
      field('action', t('Action'), { placeholder: 'operation.approve' }),
      field('actor_id', t('Actor id')),
      field('target_id', t('Target id (operation, title, user)')),
      field('from', t('From'), { type: 'date' }),
      field('to', t('To'), { type: 'date' }),
      h('p', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, t('Filter')),
        h('button', { type: 'button', class: 'secondary', onclick: () => { location.hash = '#/audit'; } }, t('Clear')),
        h('button', { type: 'button', class: 'secondary', onclick: () => saveCsv(search) }, t('Download CSV'))));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      location.hash = `#/audit${query(Object.fromEntries(new FormData(form)))}`;
    });
    const older = page.next_cursor
      ? h('button', { type: 'button', onclick: () => { location.hash = `#/audit${query({ ...filters, cursor: page.next_cursor })}`; } }, t('Older entries'))
      : null;
    show(
      h('h1', {}, t('Audit trail')),
      h('p', { class: 'lead' }, t('Every staff action and credential change, newest first; each row chained to the one before by its hash.')),
      form,
      auditTable(t('Audit entries'), page.items),
      h('nav', { class: 'pager', 'aria-label': t('Pages') }, cursor ? h('a', { href: `#/audit${query(filters)}` }, t('Newest entries')) : null, older),
    );
  });
}
