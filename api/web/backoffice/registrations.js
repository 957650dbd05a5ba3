import { badge, h, row, table, when } from './dom.js';
import { t } from './i18n.js';

/** Where a title's act stands at the escriturador, in the console's language. */
const statusWord = (status) => ({
  requested: t('requested'), registered: t('registered'), refused: t('refused'), cancelled: t('cancelled'), settled: t('settled'),
  not_registrable: t('not registrable (no NF-e model 55)'), not_requested: t('not requested'),
})[status] ?? status;

/** The negotiation recorded, in words with its Res. BCB 339 code (the code is what an originator's settings hold). */
const negotiationWord = (type) => {
  const word = ({
    aquisicao: t('acquisition without recourse'), aquisicao_com_regresso: t('acquisition with recourse'), desconto: t('discount by a bank'), credito_garantido: t('secured credit'),
  })[type];
  return word ? `${word} (${type})` : type ?? '—';
};

/** Why the escriturador refused our transfer: the assignor had sold the duplicata elsewhere. */
const refusalWord = (reason) => ({
  not_holder: t('the assignor does not hold the duplicata (not_holder)'), already_transferred: t('already transferred to another holder (already_transferred)'),
})[reason] ?? reason ?? '—';

/** Each title's duplicata at its escriturador: our act on it, or why there is none. */
export function registrationsSection(titles) {
  return h('section', { 'aria-labelledby': 'registrations' }, h('h2', { id: 'registrations' }, t('Duplicatas at the escriturador')),
    table(t('Registration of each title'), [t('Title'), t('Registration'), t('Escriturador'), t('Duplicata'), t('Act'), t('Negotiation type'), t('Registered at'), t('Refused because')],
      titles.map((title) => {
        const r = title.registration;
        return row(title.external_id, badge(r.status, statusWord(r.status)), r.registrar ?? '—', r.duplicata_id ?? '—', r.act_id ?? '—',
          negotiationWord(r.negotiation_type),
          r.registered_at ? h('time', { datetime: r.registered_at }, when(r.registered_at)) : '—', refusalWord(r.refusal_reason));
      })));
}

/** The stuck view's line on an operation waiting at the escriturador: which titles' acts it has not answered yet. */
export function stuckRegistrationWait(wait) {
  if (!wait) return null;
  const titles = wait.titles.map((title) => `${title.external_id} (${statusWord(title.status)})`).join(', ');
  return h('p', { class: 'registration-wait' }, t('Waiting at the escriturador {registrar}: {titles}', { registrar: wait.registrar, titles }));
}
