import { api } from './api.js';
import { attempt } from './actions.js';
import { confirmAction } from './confirm.js';
import { badge, h, row, say, show, table, when } from './dom.js';
import { t } from './i18n.js';

const ROLES = ['viewer', 'analyst', 'approver', 'admin'];
const roleName = (role) => ({ viewer: t('viewer'), analyst: t('analyst'), approver: t('approver'), admin: t('admin') })[role] ?? role;
const statusName = (status) => ({ invited: t('invited'), active: t('active'), disabled: t('disabled') })[status] ?? status;

const roleNames = (roles) => (roles.length ? roles.map(roleName).join(', ') : '—');

/** One checkbox per role; the chosen ones in the order of ROLES. */
const roleFields = (checked = []) => ROLES.map((role) => ({ name: `role-${role}`, label: roleName(role), type: 'checkbox', checked: checked.includes(role) }));
const chosenRoles = (values) => ROLES.filter((role) => values[`role-${role}`] !== undefined);

async function changeRoles(user, reload) {
  const values = await confirmAction({
    title: t('Roles of {email}', { email: user.email }),
    text: t('The new roles apply to the next request of every session of this account.'),
    fields: roleFields(user.roles), confirmLabel: t('Save roles'),
  });
  if (!values) return;
  const roles = chosenRoles(values);
  if (roles.length === 0) return say(t('Choose at least one role.'), 'error');
  await attempt(async () => {
    const changed = await api.patch(`/v1/backoffice/users/${user.id}`, { roles });
    say(changed.pending_grant
      ? t('The roles {roles} of {email} wait for a second admin to confirm them.', { email: user.email, roles: roleNames(roles) })
      : t('{email} now has the roles: {roles}.', { email: user.email, roles: roleNames(roles) }), 'ok');
  });
  await reload();
}

async function switchStatus(user, reload) {
  const disabling = user.status !== 'disabled';
  const values = await confirmAction(disabling
    ? { title: t('Disable {email}?', { email: user.email }), text: t('Every session of this account is refused at once, on every api process.'), confirmLabel: t('Disable') }
    : { title: t('Enable {email} again?', { email: user.email }), text: t('The account signs in again with its password and code.'), confirmLabel: t('Enable') });
  if (!values) return;
  await attempt(async () => {
    await api.patch(`/v1/backoffice/users/${user.id}`, { status: disabling ? 'disabled' : 'active' });
    say(disabling ? t('{email} is disabled.', { email: user.email }) : t('{email} is active again.', { email: user.email }), 'ok');
  });
  await reload();
}

/** The invitation form; the enrolment token goes to the invitee by e-mail, never to the admin. */
function inviteForm(reload) {
  const email = h('input', { id: 'u-email', name: 'email', type: 'email', required: true, maxlength: 320 });
  const name = h('input', { id: 'u-name', name: 'name', required: true, maxlength: 200 });
  const boxes = ROLES.map((role) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name: `role-${role}`, checked: role === 'viewer' }), ` ${roleName(role)}`));
  const form = h('form', { class: 'filters', 'aria-label': t('Invite a staff member') },
    h('p', { class: 'field' }, h('label', { for: 'u-email' }, t('E-mail')), email),
    h('p', { class: 'field' }, h('label', { for: 'u-name' }, t('Name')), name),
    h('fieldset', { class: 'field' }, h('legend', {}, t('Roles')), boxes),
    h('p', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, t('Invite'))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const roles = chosenRoles(Object.fromEntries(new FormData(form)));
    if (roles.length === 0) return say(t('Choose at least one role.'), 'error');
    await attempt(async () => {
      const invited = await api.post('/v1/backoffice/users', { email: email.value, name: name.value, roles });
      await reload();
      say(invited.pending_grant
        ? t('{email} is invited and has the enrolment token by e-mail; the roles approver and admin wait for a second admin to confirm them.', { email: invited.email })
        : t('{email} is invited and has the enrolment token by e-mail.', { email: invited.email }), 'ok');
    });
  });
  return form;
}

async function confirmGrant(grant, user, reload) {
  const values = await confirmAction({
    title: t('Confirm the roles {roles} of {email}?', { email: user?.email ?? grant.user_id, roles: roleNames(grant.roles) }),
    text: t('Another admin asked for them; your confirmation applies them at once.'), confirmLabel: t('Confirm'),
  });
  if (!values) return;
  await attempt(async () => {
    await api.post(`/v1/backoffice/role-grants/${grant.id}/confirm`);
    say(t('{email} now has the roles: {roles}.', { email: user?.email ?? grant.user_id, roles: roleNames(grant.roles) }), 'ok');
  });
  await reload();
}

/** Grants of approver or admin waiting for a second admin: any admin but the one who asked confirms. */
function grantsTable(grants, users, reload) {
  const byId = new Map(users.map((user) => [user.id, user]));
  return table(t('Roles waiting for a second admin'), [t('E-mail'), t('Roles'), t('Asked by'), t('Asked'), ''], grants.map((grant) => {
    const user = byId.get(grant.user_id);
    return row(user?.email ?? grant.user_id, roleNames(grant.roles), byId.get(grant.requested_by)?.email ?? grant.requested_by, when(grant.requested_at),
      h('button', { type: 'button', onclick: () => confirmGrant(grant, user, reload), 'aria-label': t('Confirm the roles of {email}', { email: user?.email ?? grant.user_id }) }, t('Confirm')));
  }));
}

/** Staff accounts, for admins: invite, change roles, confirm another admin's grants, disable and enable. */
export async function usersView() {
  const reload = () => usersView();
  await attempt(async () => {
    const [page, grants] = await Promise.all([api.get('/v1/backoffice/users'), api.get('/v1/backoffice/role-grants')]);
    const rows = page.items.map((user) => row(
      user.email, user.name, roleNames(user.roles), badge(user.status, statusName(user.status)), user.totp_enrolled ? t('yes') : t('no'), when(user.created_at),
      h('div', { class: 'buttons' },
        h('button', { type: 'button', onclick: () => changeRoles(user, reload), 'aria-label': t('Change the roles of {email}', { email: user.email }) }, t('Change roles')),
        h('button', { type: 'button', class: user.status === 'disabled' ? 'secondary' : 'danger', onclick: () => switchStatus(user, reload),
          'aria-label': user.status === 'disabled' ? t('Enable {email}', { email: user.email }) : t('Disable {email}', { email: user.email }) },
        user.status === 'disabled' ? t('Enable') : t('Disable')))));
    show(
      h('h1', {}, t('Users')),
      h('p', { class: 'lead' }, t('Staff accounts: who may read, act, approve and administer. Every change is in the audit trail; granting approver or admin takes a second admin.')),
      inviteForm(reload),
      ...(grants.items.length ? [grantsTable(grants.items, page.items, reload)] : []),
      table(t('Staff accounts'), [t('E-mail'), t('Name'), t('Roles'), t('Status'), t('Authenticator'), t('Created'), ''], rows),
    );
  });
}
