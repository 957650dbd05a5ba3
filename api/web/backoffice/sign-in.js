import { Refusal, signIn } from './api.js';
import { h, say, show } from './dom.js';
import { inWords } from './refusals.js';

export function signInView(onSignedIn, notice) {
  const email = h('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'username', required: true });
  const password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const form = h('form', { class: 'card narrow', 'aria-labelledby': 'sign-in-title' },
    h('h1', { id: 'sign-in-title' }, 'Sign in'),
    notice ? h('p', { class: 'notice' }, notice) : null,
    h('p', { class: 'field' }, h('label', { for: 'email' }, 'E-mail'), email),
    h('p', { class: 'field' }, h('label', { for: 'password' }, 'Password'), password),
    h('p', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary' }, 'Sign in')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await signIn(email.value, password.value);
      say('');
      onSignedIn();
    } catch (err) {
      say(err instanceof Refusal ? inWords(err) : `Sign-in failed: ${err.message}`, 'error');
      password.value = '';
      password.focus();
    }
  });
  show(form);
  email.focus();
}
