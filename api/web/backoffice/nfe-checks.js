import { badge, h, row, table, when } from './dom.js';
import { t } from './i18n.js';

/** What the payer said of the NF-e, in the console's language (codes of manifestações kept apart in the column's header). */
const payerWord = (event) => ({
  confirmed: t('confirmed (210200)'), unknown_operation: t('unknown operation (210220)'), not_performed: t('not performed (210240)'),
})[event] ?? '—';

/** Why a pending check waits, or what refused it: the code, and for the payer's silence a sentence. */
const reasonText = (reason) => (reason === 'payer_confirmation_missing' ? t('waiting for the payer\'s confirmation') : reason ?? '—');

/** Each receivable's NF-e as SEFAZ last answered before the PIX; none when no receivable has an NF-e checked at SEFAZ. */
export function nfeChecksSection(titles) {
  const checked = titles.filter((title) => title.nfe_check && title.nfe_check.status !== 'not_applicable');
  if (checked.length === 0) return null;
  return h('section', { 'aria-labelledby': 'nfe-checks' }, h('h2', { id: 'nfe-checks' }, t('NF-e at SEFAZ')),
    table(t('NF-e checks before the PIX'), [t('Title'), t('Check'), t('Reason'), 'cStat', 'xMotivo', t('Payer\'s word'), t('Checked at')],
      checked.map((title) => {
        const check = title.nfe_check;
        return row(title.external_id, badge(check.status), reasonText(check.reason), check.cstat ?? '—', check.xmotivo ?? '—', payerWord(check.payer_event), when(check.checked_at));
      })));
}

/** Why a title went into dispute after payout, in the console's language. */
const disputeWord = (reason) => ({ nfe_cancelled: t('NF-e cancelled'), nfe_disowned_by_payer: t('disowned by its payer') })[reason] ?? reason;

/** Titles the daily re-check after payout put in dispute (SEFAZ's answer then); none when no title is. */
export function disputesSection(titles) {
  const disputed = titles.filter((title) => title.dispute);
  if (disputed.length === 0) return null;
  return h('section', { 'aria-labelledby': 'disputes' }, h('h2', { id: 'disputes' }, t('Titles in dispute')),
    h('p', { class: 'muted' }, t('Found by the daily NF-e re-check after payout. No money moved and the title stays payable; settle it with the assignor.')),
    table(t('Disputes after payout'), [t('Title'), t('Reason'), t('Payer\'s word'), 'cStat', 'xMotivo', t('Disputed at')],
      disputed.map(({ external_id: title, dispute }) => row(title, badge('disputed', disputeWord(dispute.reason)), payerWord(dispute.payer_event), dispute.cstat, dispute.xmotivo,
        h('time', { datetime: dispute.disputed_at }, when(dispute.disputed_at))))));
}

/** The stuck view's line on the check that holds an operation: its key and SEFAZ's last answer. */
export function stuckNfeCheck(check) {
  if (!check) return null;
  return h('p', { class: 'nfe-check' }, t('NF-e {key}: cStat {cstat} ({xmotivo}), {when}', { key: check.nfe_key, cstat: check.cstat, xmotivo: check.xmotivo, when: when(check.checked_at) }));
}
