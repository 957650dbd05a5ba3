import { Refusal, signIn } from './api.js';
import { h, say, show } from './dom.js';
import { t } from './i18n.js';
import { inWords } from './refusals.js';

/** E-mail and password; the code field appears when the account has TOTP (the service answers mfa_required). */
export function signInView(onSignedIn, notice) {
  const email = h('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'username', required: true });
  const password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const totp = h('input', { id: 'totp', name: 'totp', inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '\\d{6}', maxlength: 6 });
  const codeField = h('p', { class: 'field', hidden: true }, h('label', { for: 'totp' }, t('Authenticator code')), totp);
  const form = h('form', { class: 'card narrow', 'aria-labelledby': 'sign-in-title' },
    h('h1', { id: 'sign-in-title' }, t('Sign in')),
    notice ? h('p', { class: 'notice' }, notice) : null,
    h('p', { class: 'field' }, h('label', { for: 'email' }, t('E-mail')), email),
    h('p', { class: 'field' }, h('label', { for: 'password' }, t('Password')), password),
    codeField,
    h('p', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, t('Sign in'))),
    h('p', { class: 'muted' }, h('a', { href: '#/enrol' }, t('Invited? Enrol with your token'))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await signIn(email.value, password.value, totp.value);
      say('');
      onSignedIn();
    } catch (err) {
      if (err instanceof Refusal && err.code === 'mfa_required') {
        codeField.hidden = false;
        totp.required = true;
        say(inWords(err), 'info');
        totp.focus();
        return;
      }
      say(err instanceof Refusal ? inWords(err) : t('Sign-in failed: {message}', { message: err.message }), 'error');
      password.value = '';
      totp.value = '';
      password.focus();
    }
  });
  show(form);
  email.focus();
}
