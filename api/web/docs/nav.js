// The docs' one header, on every page: the guides beside the reference.
const LINKS = [
  ['/docs/guides/call-sequence.html', 'Call sequence'],
  ['/docs/guides/sandbox.html', 'Sandbox magic values'],
  ['/docs/guides/test-clocks.html', 'Test clocks'],
  ['/docs/guides/collecting-from-payers.html', 'Collecting from payers'],
  ['/docs/guides/idempotency.html', 'Idempotency'],
  ['/docs/guides/webhook-signatures.html', 'Verifying webhooks'],
  ['/docs/', 'API reference'],
  ['/v1/openapi.json', 'openapi.json'],
];

const header = document.createElement('header');
header.className = 'docs-top';
const title = document.createElement('strong');
title.textContent = 'Receivables Anticipation API';
const nav = document.createElement('nav');
nav.setAttribute('aria-label', 'Docs');
for (const [href, text] of LINKS) {
  const link = document.createElement('a');
  link.href = href;
  link.textContent = text;
  if (href === location.pathname) link.setAttribute('aria-current', 'page');
  nav.append(link);
}
header.append(title, nav);
document.body.prepend(header);
