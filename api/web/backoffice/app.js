import { session, signOut } from './api.js';
import { say } from './dom.js';
import { operationView } from './operation.js';
import { queueView } from './queue.js';
import { signInView } from './sign-in.js';
import { stuckView } from './stuck.js';
import { webhooksView } from './webhooks.js';
import { systemView } from './system.js';

const nav = document.getElementById('nav');

function route() {
  const current = session.get();
  nav.hidden = !current;
  if (!current) return signInView(route);
  document.getElementById('who').textContent = current.email;
  const [path, search] = (location.hash.slice(1) || '/queue').split('?');
  const params = new URLSearchParams(search ?? '');
  for (const link of nav.querySelectorAll('a')) link.toggleAttribute('aria-current', link.getAttribute('href') === `#${path}`);
  const operation = /^\/operations\/([0-9a-f-]{36})$/.exec(path);
  if (operation) return operationView(operation[1]);
  if (path === '/stuck') return stuckView();
  if (path === '/webhooks') return webhooksView(params);
  if (path === '/system') return systemView();
  return queueView(params);
}

document.getElementById('sign-out').addEventListener('click', async () => {
  await signOut();
  say('Signed out.');
  location.hash = '#/queue';
  route();
});

// Any call answered 401 (expired or revoked session) lands here.
window.addEventListener('session-ended', () => {
  nav.hidden = true;
  signInView(route, 'Your session has ended. Sign in again.');
});
window.addEventListener('hashchange', () => { say(''); route(); });
route();
