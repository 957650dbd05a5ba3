import { expect } from 'chai';
import { consultConsequence, consultOutcome, distributionOutcome } from '../../domain/sefaz/status-codes';
import { isDisowning, latestConclusive, PayerEventSeen, payerEventOfType } from '../../domain/sefaz/payer-events';
import { STATE_CODES } from '../../domain/sefaz/states';
import { payoutCheck } from '../../domain/sefaz/payout-check';
import { beyondConsultAgeAccepted } from '../../domain/sefaz/consult-age';
import type { NfeStatusAnswer, PayerEventsAnswer } from '../../domain/sefaz/port';
import { parseAuthorizers, SefazSettingError } from '../../platform/config/sefaz';
import { loadConfig } from '../../platform/config/config';
import { AnswerCache } from '../../providers/sefaz/answer-cache';
import { minimalEnv, productionEnv } from '../support/config';

describe('SEFAZ: what an answer means', () => {
  it('maps each cStat of the consult as a practitioner does, and what follows from it', () => {
    const seen = (cStat: string) => [consultOutcome(cStat), consultConsequence(consultOutcome(cStat))];
    expect(seen('100')).to.deep.equal(['authorized', 'pass']);
    expect(seen('150')).to.deep.equal(['authorized', 'pass']);
    expect(seen('101')).to.deep.equal(['cancelled', 'refuse']);
    expect(seen('151')).to.deep.equal(['cancelled', 'refuse']);
    expect(seen('110')).to.deep.equal(['denied', 'refuse']);
    expect(seen('217')).to.deep.equal(['unknown', 'refuse']);
    for (const forged of ['561', '562', '613']) expect(seen(forged)).to.deep.equal(['forged', 'refuse']);
    expect(seen('226')).to.deep.equal(['misrouted', 'alert']);
    expect(seen('526')).to.deep.equal(['too_old', 'policy']);
    expect(seen('108')).to.deep.equal(['outage', 'wait']);
    expect(seen('109')).to.deep.equal(['outage', 'wait']);
    expect(seen('656')).to.deep.equal(['throttled', 'wait']);
  });

  it('never reads the cancellation event\'s own 135/155, nor an unmapped code, as a verdict on the invoice', () => {
    for (const cStat of ['135', '155', '999']) expect(consultConsequence(consultOutcome(cStat))).to.equal('wait');
  });

  it('tells the distribution\'s found, none, paused, throttled, not available (a certificate not of a party) and refused answers apart', () => {
    expect(['138', '137', '108', '109', '656', '640', '593', '215'].map(distributionOutcome)).to.deep.equal(['found', 'none', 'outage', 'outage', 'throttled', 'not_available', 'not_available', 'refused']);
  });
});

describe('SEFAZ: the check before the PIX, by product policy', () => {
  const consult = (cStat: string): NfeStatusAnswer => ({
    key: 'K', cStat, reason: `r${cStat}`, outcome: consultOutcome(cStat), authorizedAt: null, digestValue: null, eventTypes: [], answeredAt: '2026-11-28T00:00:00Z', cached: false,
  });
  const distribution = (cStat: string): PayerEventsAnswer => ({ key: 'K', cStat, reason: `r${cStat}`, outcome: distributionOutcome(cStat), events: [], answeredAt: '2026-11-28T00:00:00Z', cached: false });
  const policy = (payerConfirmation: 'none' | 'required', beyondConsultAgeAccepted = false) => ({ payerConfirmation, beyondConsultAgeAccepted });

  it('a 526 is refused as nfe_too_old_to_check unless the product accepts it with this receivable\'s XML proof', () => {
    expect(beyondConsultAgeAccepted('refuse', true)).to.equal(false);
    expect(beyondConsultAgeAccepted('accept_with_xml', false)).to.equal(false);
    expect(beyondConsultAgeAccepted('accept_with_xml', true)).to.equal(true);
    expect(payoutCheck(consult('526'), distribution('137'))).to.include({ status: 'refused', reason: 'nfe_too_old_to_check', cStat: '526' });
    expect(payoutCheck(consult('526'), distribution('137'), policy('none', true))).to.include({ status: 'passed', reason: null, cStat: '526' });
    expect(payoutCheck(consult('526'), distribution('137'), policy('required', true))).to.include({ status: 'pending', reason: 'payer_confirmation_missing' });
  });

  it('payer events SEFAZ will not show us pass on the consult alone, or wait as a missing confirmation when the product requires one; other refusals wait', () => {
    expect(payoutCheck(consult('100'), distribution('593'))).to.include({ status: 'passed', cStat: '100', payerEvents: 'not_available' });
    expect(payoutCheck(consult('100'), distribution('593'), policy('required'))).to.include({ status: 'pending', reason: 'payer_confirmation_missing', cStat: '593', payerEvents: 'not_available' });
    expect(payoutCheck(consult('100'), distribution('137'))).to.include({ status: 'passed', payerEvents: 'read' });
    expect(payoutCheck(consult('100'), distribution('215'))).to.include({ status: 'pending', reason: null, cStat: '215' });
    expect(payoutCheck(consult('101'), distribution('593'))).to.include({ status: 'refused', reason: 'nfe_cancelled' });
  });
});

describe('SEFAZ: the payer\'s word', () => {
  const authorizedAt = '2026-06-01T10:00:00-03:00';
  const seen = (event: PayerEventSeen['event'], at: string, cStat = '135'): PayerEventSeen => ({ event, at, cStat });

  it('names the four manifestações by their event types', () => {
    expect(['210200', '210210', '210220', '210240', '110111'].map(payerEventOfType)).to.deep.equal(['confirmed', 'aware', 'unknown_operation', 'not_performed', null]);
  });

  it('counts the latest conclusive event: a confirmation after a disowning one makes the NF-e good again, and the reverse', () => {
    const disowned = seen('not_performed', '2026-06-02T10:00:00-03:00');
    const confirmed = seen('confirmed', '2026-06-03T10:00:00-03:00');
    expect(latestConclusive([disowned, confirmed], authorizedAt)).to.equal(confirmed);
    expect(isDisowning(latestConclusive([disowned, confirmed], authorizedAt))).to.equal(false);
    const later = seen('unknown_operation', '2026-06-04T10:00:00-03:00');
    expect(isDisowning(latestConclusive([confirmed, later, disowned], authorizedAt))).to.equal(true);
  });

  it('ignores ciência (not conclusive), an event not registered, and one registered after 180 days of authorization', () => {
    const confirmed = seen('confirmed', '2026-06-02T10:00:00-03:00');
    expect(latestConclusive([confirmed, seen('aware', '2026-06-05T10:00:00-03:00')], authorizedAt)).to.equal(confirmed);
    expect(latestConclusive([confirmed, seen('not_performed', '2026-06-05T10:00:00-03:00', '573')], authorizedAt)).to.equal(confirmed);
    expect(latestConclusive([confirmed, seen('not_performed', '2026-11-29T10:00:00-03:00')], authorizedAt)).to.equal(confirmed);
    expect(latestConclusive([seen('aware', '2026-06-05T10:00:00-03:00')], authorizedAt)).to.equal(null);
  });
});

describe('SEFAZ: the authorizers table in configuration', () => {
  const everyState = (url: string) => `${STATE_CODES.join(',')}=${url}`;

  it('reads groups of states per authorizer, SVRS serving several', () => {
    const others = STATE_CODES.filter((code) => code !== '35');
    const table = parseAuthorizers(`35=https://sp.example/ws; ${others.join(',')}=https://svrs.example/ws`, 'SEFAZ_AUTHORIZERS');
    expect(table['35']).to.equal('https://sp.example/ws');
    expect(table['43']).to.equal('https://svrs.example/ws');
  });

  it('refuses a missing state, one given twice, a code that is no state and a group without a URL', () => {
    const refusal = (raw: string) => {
      try {
        parseAuthorizers(raw, 'SEFAZ_AUTHORIZERS');
      } catch (err) {
        expect(err).to.be.instanceOf(SefazSettingError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal('35=https://sp.example/ws')).to.match(/no authorizer for state 11, 12/);
    expect(refusal(`${everyState('https://a.example')};35=https://b.example`)).to.match(/state 35 is given twice/);
    expect(refusal(`${everyState('https://a.example')};99=https://b.example`)).to.match(/"99" is not a state's IBGE code/);
    expect(refusal('35')).to.match(/"35" is not cUF\[,cUF\.\.\.\]=url/);
  });

  it('outside production asks the sandbox for every state in homologation; production asks in production and only over https', () => {
    const dev = loadConfig(minimalEnv({ SEFAZ_SANDBOX_URL: 'http://127.0.0.1:9999/sefaz' })).sefaz;
    expect(dev.environment).to.equal('2');
    expect(new Set(Object.values(dev.authorizers))).to.deep.equal(new Set(['http://127.0.0.1:9999/sefaz/NFeConsultaProtocolo4']));
    expect(dev.distributionUrl).to.equal('http://127.0.0.1:9999/sefaz/NFeDistribuicaoDFe');
    expect(loadConfig(productionEnv({ DATABASE_URL: 'postgres://x/y', PAYLOAD_KEYS: minimalEnv().PAYLOAD_KEYS })).sefaz.environment).to.equal('1');
    expect(() => loadConfig(productionEnv({ DATABASE_URL: 'postgres://x/y', PAYLOAD_KEYS: minimalEnv().PAYLOAD_KEYS, SEFAZ_DISTRIBUTION_URL: 'http://an.example/ws' })))
      .to.throw(/SEFAZ_AUTHORIZERS and SEFAZ_DISTRIBUTION_URL must be https/);
    expect(() => loadConfig(productionEnv({ DATABASE_URL: 'postgres://x/y', PAYLOAD_KEYS: minimalEnv().PAYLOAD_KEYS, SEFAZ_AUTHORIZERS: '' }))).to.throw(/SEFAZ_AUTHORIZERS and SEFAZ_DISTRIBUTION_URL are required when SERVICE_ENV=prod/);
    expect(() => loadConfig(minimalEnv({ SEFAZ_ENVIRONMENT: 'staging' }))).to.throw(/SEFAZ_ENVIRONMENT must be production or homologation/);
  });
});

describe('SEFAZ: no key asked more than a few times an hour', () => {
  const answer = (cStat: string) => ({ cStat, cached: false });

  it('asks up to the limit, then gives the last answer again, marked cached, until the hour has passed', () => {
    let now = 0;
    const cache = new AnswerCache<{ cStat: string; cached: boolean }>({ perHour: 2, restMs: 3_600_000 }, () => now);
    for (const cStat of ['100', '101']) {
      expect(cache.instead('k')).to.equal(null);
      cache.asking('k');
      cache.answered('k', answer(cStat), false);
      now += 60_000;
    }
    expect(cache.instead('k')).to.deep.equal({ answer: { cStat: '101', cached: true } });
    expect(cache.instead('other')).to.equal(null);
    now = 3_600_001;
    expect(cache.instead('k')).to.equal(null);
  });

  it('rests a key after a 656 whatever the count, keeping the answer before it; without one the caller is told to wait', () => {
    let now = 0;
    const cache = new AnswerCache<{ cStat: string; cached: boolean }>({ perHour: 10, restMs: 600_000 }, () => now);
    cache.asking('k');
    cache.answered('k', answer('100'), false);
    cache.asking('k');
    cache.answered('k', answer('656'), true);
    expect(cache.instead('k')).to.deep.equal({ answer: { cStat: '100', cached: true } });
    cache.asking('fresh');
    cache.answered('fresh', answer('656'), true);
    expect(cache.instead('fresh')).to.deep.equal({ answer: null });
    now = 600_001;
    expect(cache.instead('k')).to.equal(null);
  });
});
