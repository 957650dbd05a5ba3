// The console's only way to the service: the public API, with the signed-in user's token.
const KEY = 'backoffice.session';

export class SessionEnded extends Error {}

export class Refusal extends Error {
  constructor(status, detail) {
    super(typeof detail === 'string' ? detail : detail?.code ?? `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
    this.code = typeof detail === 'string' ? detail.split(':')[0] : detail?.code ?? null;
  }
}

export const session = {
  get() {
    try { return JSON.parse(sessionStorage.getItem(KEY)); } catch { return null; }
  },
  set(value) { sessionStorage.setItem(KEY, JSON.stringify(value)); },
  clear() { sessionStorage.removeItem(KEY); },
};

const OPERATE = 'backoffice:operate';
const CODEC_SESSION = '/v1/backoffice/codec/session';

/**
 * Signing in with backoffice:operate also opens the codec session (an HttpOnly cookie), so Temporal
 * Web on the same site decodes this operator's workflows with no further step. Decoding is a
 * convenience: a refusal there never stops the sign-in.
 */
export async function signIn(email, password, totp) {
  const res = await fetch('/v1/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password, ...(totp ? { totp } : {}) }) });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Refusal(res.status, body.detail);
  const scopes = body.scopes ?? [];
  session.set({ token: body.access_token, email, scopes });
  if (scopes.includes(OPERATE)) await fetch(CODEC_SESSION, { method: 'POST', headers: { Authorization: `Bearer ${body.access_token}` } }).catch(() => undefined);
}

/** Signing out closes the codec session too. */
export async function signOut() {
  const current = session.get();
  session.clear();
  if (current?.scopes?.includes(OPERATE)) await fetch(CODEC_SESSION, { method: 'DELETE', headers: { Authorization: `Bearer ${current.token}` } }).catch(() => undefined);
}

/** A read of a page the user has left: its answer must not be drawn over the page now shown. */
export class Superseded extends Error {}

let page = new AbortController();

/**
 * A new page is being shown (or this one drawn again): the reads the one before still waited for are
 * dropped. Under load a slow approval queue answered after the user had moved on to Users, and drew
 * the queue over it. Decisions (POST, PATCH) are never dropped: they finish where they started.
 */
export function newPage() {
  page.abort();
  page = new AbortController();
}

async function call(method, path, body) {
  const current = session.get();
  if (!current) throw new SessionEnded();
  const headers = { Authorization: `Bearer ${current.token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  // A decision retried after a lost answer must not act twice: one key per action.
  if (method !== 'GET') headers['Idempotency-Key'] = crypto.randomUUID();
  const signal = method === 'GET' ? page.signal : undefined;
  let res;
  let parsed;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
    parsed = res.status === 204 ? null : await res.json().catch(() => null);
  } catch (err) {
    if (signal?.aborted) throw new Superseded();
    throw err;
  }
  if (signal?.aborted) throw new Superseded();
  if (res.status === 401) {
    session.clear();
    throw new SessionEnded();
  }
  if (!res.ok) throw new Refusal(res.status, parsed?.detail);
  return parsed;
}

/** A text answer (the audit trail's CSV) as a Blob, with the same session handling as `call`. */
async function download(path) {
  const current = session.get();
  if (!current) throw new SessionEnded();
  const res = await fetch(path, { headers: { Authorization: `Bearer ${current.token}` } });
  if (res.status === 401) {
    session.clear();
    throw new SessionEnded();
  }
  if (!res.ok) throw new Refusal(res.status, (await res.json().catch(() => null))?.detail);
  return res.blob();
}

export const api = {
  download,
  get: (path) => call('GET', path),
  post: (path, body) => call('POST', path, body),
  patch: (path, body) => call('PATCH', path, body),
};

/** Query string from the filled fields only. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}
