// A refusal in words: what happened and what to do, with the code for support.
const WORDS = {
  operation_cannot_be_approved: 'This operation cannot be approved: it is no longer waiting for approval (decided or cancelled meanwhile).',
  operation_cannot_be_denied: 'This operation cannot be denied: it is no longer waiting for approval (decided or cancelled meanwhile).',
  operation_cannot_retry_disbursement: 'The disbursement cannot be retried: the operation is not in DISBURSEMENT_FAILED any more.',
  contract_already_exists: 'The contract has already been sent: there is nothing to send again.',
  operation_not_in_signable_state: 'The contract cannot be sent in the operation\'s current state.',
  operation_not_found: 'No such operation.',
  title_not_found: 'No such title.',
  title_balance_locked: 'The title is overdue: its balance moved to an assignor payable, so payer payments are no longer recorded on it.',
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
};

export function inWords(refusal) {
  const code = refusal.code ?? 'unknown';
  if (code === 'validation_error') {
    const first = refusal.detail?.errors?.[0];
    return `The form has an invalid value${first ? ` (${first.loc?.slice(1).join('.')}: ${first.msg})` : ''}. (${refusal.status} validation_error)`;
  }
  const words = WORDS[code] ?? (refusal.detail?.message || 'The service refused this.');
  return `${words} (${refusal.status} ${code})`;
}
