import { Refusal } from './api.js';
import { h, say, show } from './dom.js';
import { t } from './i18n.js';
import { inWords } from './refusals.js';

const MIN_PASSWORD = 12;

/** What enrolment answers, shown once: the secret for an authenticator app, typed or as its otpauth:// link. */
function enrolled(answer) {
  show(h('section', { class: 'card narrow', 'aria-labelledby': 'enrolled-title' },
    h('h1', { id: 'enrolled-title' }, t('Add the account to your authenticator')),
    h('p', {}, t('Shown once: add it now. Type the key into the app, or open the link on the phone that has it.')),
    h('p', { class: 'field' }, h('span', {}, t('Key (base32, 6 digits, 30 s)')), h('code', { id: 'totp-secret' }, answer.totp_secret)),
    h('p', {}, h('a', { href: answer.otpauth_uri, id: 'otpauth' }, t('Open in an authenticator app'))),
    h('p', { class: 'buttons' }, h('a', { href: '#/queue', class: 'button primary' }, t('Go to sign in')))));
}

/** The invited person's first visit: the enrolment token from the admin, and a password of their own. */
export function enrolView() {
  const token = h('input', { id: 'enrolment-token-input', name: 'enrolment_token', required: true, autocomplete: 'off' });
  const password = h('input', { id: 'new-password', name: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: MIN_PASSWORD });
  const form = h('form', { class: 'card narrow', 'aria-labelledby': 'enrol-title' },
    h('h1', { id: 'enrol-title' }, t('Enrol')),
    h('p', { class: 'field' }, h('label', { for: 'enrolment-token-input' }, t('Enrolment token')), token),
    h('p', { class: 'field' }, h('label', { for: 'new-password' }, t('New password')), password, h('small', {}, t('At least {n} characters.', { n: MIN_PASSWORD }))),
    h('p', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, t('Enrol'))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const res = await fetch('/v1/auth/enrol', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ enrolment_token: token.value.trim(), password: password.value }) });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) {
      say(inWords(new Refusal(res.status, body.detail)), 'error');
      return;
    }
    say(t('Enrolled: your account is active.'), 'ok');
    enrolled(body);
  });
  show(form);
  token.focus();
}
