import { t } from './i18n.js';

// A refusal in words: what happened and what to do, with the code for support.
const WORDS = {
  operation_cannot_be_approved: 'This operation cannot be approved: it is no longer waiting for approval (decided or cancelled meanwhile).',
  operation_cannot_be_denied: 'This operation cannot be denied: it is no longer waiting for approval (decided or cancelled meanwhile).',
  operation_cannot_retry_disbursement: 'The disbursement cannot be retried: the operation is not in DISBURSEMENT_FAILED any more.',
  contract_already_exists: 'The contract has already been sent: there is nothing to send again.',
  operation_not_in_signable_state: 'The contract cannot be sent in the operation\'s current state.',
  operation_not_found: 'No such operation.',
  title_not_found: 'No such title.',
  title_balance_locked: 'The title\'s balance moved to an assignor payable (overdue with recourse, or repurchased), so payer payments are no longer recorded on it.',
  title_already_paid: 'The title is already paid in full.',
  title_cancelled: 'The title was cancelled with its operation.',
  title_not_payable_yet: 'The operation has not been paid out yet: payer payments are recorded once it is PAID.',
  payment_exceeds_outstanding_balance: 'The amount is above the title\'s outstanding balance.',
  external_id_reused_with_different_body: 'That payment reference was already used for a different payment on this title.',
  title_payment_unavailable: 'The payment could not be applied right now; nothing was recorded. Try again with the same reference.',
  scope_insufficient: 'Your account is not allowed to do this.',
  invalid_credentials: 'E-mail or password is wrong.',
  user_locked: 'This account is locked after too many failed attempts; try again in 30 minutes.',
  esign_create_failed: 'The e-sign provider refused the contract again; the operation stays in CONTRACT_ERROR.',
  esign_add_signer_failed: 'The e-sign provider refused the signers again; the operation stays in CONTRACT_ERROR.',
  esign_update_signer_failed: 'The e-sign provider refused a signer update; the operation stays in CONTRACT_ERROR.',
  esign_template_inventory_failed: 'The e-sign provider\'s template check failed; the operation stays in CONTRACT_ERROR.',
  rate_limit_exceeded: 'Too many requests; wait a moment and try again.',
  approver_already_approved: 'You have approved this operation already: a second approver must give the other approval.',
  mfa_required: 'Enter the 6-digit code from your authenticator app.',
  mfa_enrolment_required: 'This account must enrol an authenticator before it can sign in.',
  user_disabled: 'This account is disabled.',
  user_email_taken: 'A user with this e-mail exists already.',
  user_not_found: 'No such user.',
  last_admin: 'This is the last active admin: make another account admin first.',
  staff_self_change: 'No one changes their own roles or status: ask another admin.',
  grant_needs_second_admin: 'You asked for this grant: another admin must confirm it.',
  approvers_not_independent: 'One approver made or last changed the other\'s account in the last 30 days: another approver must give the second approval.',
  mail_unavailable: 'The invitation e-mail could not be sent; nothing was kept. Try again.',
  enrolment_token_invalid: 'This enrolment token is unknown, used already or older than 72 hours: ask an admin for a new invitation.',
  password_too_weak: 'The password is too short: use at least 12 characters.',
  ledger_reconciliation_not_mismatched: 'This reconciliation has nothing left to accept: it found nothing, or was accepted already.',
  pix_unavailable: 'The payout PSP could not be read; nothing was stored. Try again.',
  pix_collection_unavailable: 'The collection PSP could not be read; nothing was stored. Try again.',
};

export function inWords(refusal) {
  const code = refusal.code ?? 'unknown';
  if (code === 'validation_error') {
    const first = refusal.detail?.errors?.[0];
    return `${t('The form has an invalid value')}${first ? ` (${first.loc?.slice(1).join('.')}: ${first.msg})` : ''}. (${refusal.status} validation_error)`;
  }
  const words = WORDS[code] ? t(WORDS[code]) : (refusal.detail?.message || t('The service refused this.'));
  return `${words} (${refusal.status} ${code})`;
}
