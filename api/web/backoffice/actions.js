import { api, Refusal, session, SessionEnded, Superseded } from './api.js';
import { confirmAction } from './confirm.js';
import { say } from './dom.js';
import { t } from './i18n.js';
import { inWords } from './refusals.js';

const DECIDE = ['backoffice:decide'];
/** What payer payments, retries and re-dispatch accept (the API takes either scope). */
export const ACT = ['backoffice:act', 'backoffice:decide'];

/** Whether the signed-in user's scopes include one of `scopes`: buttons for what the role cannot do are not shown (the API refuses them anyway). */
export const mayUse = (scopes) => (session.get()?.scopes ?? []).some((scope) => scopes.includes(scope));

/**
 * The backoffice's decisions, each behind a confirmation. `done` runs after the service answered
 * (re-render); a refusal is said in words and changes nothing.
 */
const ACTIONS = {
  approve: {
    label: 'Approve',
    scopes: DECIDE,
    confirm: (op) => ({ title: t('Approve {number}?', { number: op.display_number }), text: t('The contract is sent to the signers right after approval.'), confirmLabel: t('Approve'),
      fields: [{ name: 'note', label: t('Note (optional)'), type: 'textarea', maxlength: 1000 }] }),
    run: (op, values) => api.post(`/v1/backoffice/operations/${op.id}/approve`, { note: values.note || null }),
  },
  deny: {
    label: 'Deny',
    scopes: DECIDE,
    confirm: (op) => ({ title: t('Deny {number}?', { number: op.display_number }), text: t('Denial is final: the titles are cancelled and the exposure released.'), confirmLabel: t('Deny'),
      fields: [{ name: 'reason', label: t('Reason (required)'), type: 'textarea', required: true, maxlength: 1000 }] }),
    run: (op, values) => api.post(`/v1/backoffice/operations/${op.id}/deny`, { reason: values.reason }),
  },
  retry: {
    label: 'Retry disbursement',
    scopes: ACT,
    confirm: (op) => ({ title: t('Retry the PIX of {number}?', { number: op.display_number }), text: t('A new PIX order is sent with a new key. Fix the assignor\'s account with them first.'), confirmLabel: t('Retry disbursement') }),
    run: (op) => api.post(`/v1/backoffice/operations/${op.id}/retry-disbursement`),
  },
  resend: {
    label: 'Send contract again',
    scopes: ACT,
    confirm: (op) => ({ title: t('Send the contract of {number} again?', { number: op.display_number }), text: t('Do this once the e-sign provider is healthy again.'), confirmLabel: t('Send contract again') }),
    run: (op) => api.post(`/v1/backoffice/operations/${op.id}/contract/send-for-signature`),
  },
};

function offeredIn(status) {
  switch (status) {
    case 'WAITING_APPROVAL': return ['approve', 'deny'];
    case 'DISBURSEMENT_FAILED': return ['retry'];
    case 'CONTRACT_ERROR': return ['resend'];
    default: return [];
  }
}

/** Which actions a state offers to the signed-in user's role. */
export const actionsFor = (status) => offeredIn(status).filter((name) => mayUse(ACTIONS[name].scopes));

export const actionLabel = (name) => t(ACTIONS[name].label);

/** Four-eyes progress in words: "1 of 2". */
export const approvalProgress = (op) => t('{given} of {required}', { given: op.approvals.length, required: op.approvals_required });

export async function runAction(name, op, done) {
  const action = ACTIONS[name];
  const values = await confirmAction(action.confirm(op));
  if (!values) return;
  await attempt(async () => {
    const moved = await action.run(op, values);
    const waitingForSecond = moved.lifecycle_status === 'WAITING_APPROVAL' && moved.approvals_required > moved.approvals?.length;
    say(waitingForSecond
      ? t('{action}: done. {number} has {progress} approvals; a second approver must approve it.', { action: actionLabel(name), number: op.display_number, progress: approvalProgress(moved) })
      : t('{action}: done. {number} is now {status}.', { action: actionLabel(name), number: op.display_number, status: moved.lifecycle_status }), 'ok');
  });
  await done();
}

/** Runs a call, saying a refusal in words; a 401 goes back to sign-in. */
export async function attempt(fn) {
  try {
    await fn();
  } catch (err) {
    if (err instanceof Superseded) return;
    if (err instanceof SessionEnded) { window.dispatchEvent(new Event('session-ended')); return; }
    if (err instanceof Refusal) { say(inWords(err), 'error'); return; }
    say(t('Something went wrong: {message}', { message: err.message }), 'error');
  }
}
