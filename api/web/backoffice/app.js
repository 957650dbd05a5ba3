import { newPage, session, signOut } from './api.js';
import { say } from './dom.js';
import { language, setLanguage, t, translateStatic } from './i18n.js';
import { auditView } from './audit.js';
import { enrolView } from './enrol.js';
import { operationView } from './operation.js';
import { queueView } from './queue.js';
import { signInView } from './sign-in.js';
import { stuckView } from './stuck.js';
import { usersView } from './users.js';
import { webhooksView } from './webhooks.js';
import { systemView } from './system.js';
import { ledgerView } from './ledger.js';

const nav = document.getElementById('nav');
const languageButton = document.getElementById('language');

/** The static page in the chosen language, and the button offering the other one. */
function localise() {
  translateStatic();
  const other = language() === 'en' ? 'pt-BR' : 'en';
  languageButton.textContent = other === 'en' ? 'English' : 'Português';
  languageButton.lang = other;
  languageButton.setAttribute('aria-label', other === 'en' ? 'Show the console in English' : 'Mostrar o console em português');
}

/** Links to pages the user's scopes open (`data-scopes`: any of them); the API refuses the rest anyway. */
function showLinksFor(scopes) {
  for (const link of nav.querySelectorAll('[data-scopes]')) link.hidden = !link.dataset.scopes.split(' ').some((scope) => scopes.includes(scope));
}

function route() {
  newPage();
  const current = session.get();
  nav.hidden = !current;
  if (location.hash.startsWith('#/enrol')) return enrolView();
  if (!current) return signInView(route);
  document.getElementById('who').textContent = current.email;
  showLinksFor(current.scopes ?? []);
  const [path, search] = (location.hash.slice(1) || '/queue').split('?');
  const params = new URLSearchParams(search ?? '');
  for (const link of nav.querySelectorAll('a')) link.toggleAttribute('aria-current', link.getAttribute('href') === `#${path}`);
  const operation = /^\/operations\/([0-9a-f-]{36})$/.exec(path);
  if (operation) return operationView(operation[1]);
  if (path === '/stuck') return stuckView();
  if (path === '/webhooks') return webhooksView(params);
  if (path === '/system') return systemView();
  if (path === '/ledger') return ledgerView(params);
  if (path === '/users') return usersView();
  if (path === '/audit') return auditView(params);
  return queueView(params);
}

document.getElementById('sign-out').addEventListener('click', async () => {
  await signOut();
  say(t('Signed out.'));
  location.hash = '#/queue';
  route();
});

languageButton.addEventListener('click', () => {
  setLanguage(language() === 'en' ? 'pt-BR' : 'en');
  localise();
  say('');
  route();
});

// Any call answered 401 (expired or revoked session) lands here.
window.addEventListener('session-ended', () => {
  nav.hidden = true;
  signInView(route, t('Your session has ended. Sign in again.'));
});
window.addEventListener('hashchange', () => { say(''); route(); });
localise();
route();
