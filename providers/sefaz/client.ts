import type { Dispatcher } from 'undici';
import type { SefazSettings } from '../../platform/config/sefaz';
import { CONSULT_SERVICE, DISTRIBUTION_SERVICE } from '../../domain/sefaz/wire';
import { stateCodeOfKey } from '../../domain/sefaz/states';
import type { DistributionParty, NfeStatusAnswer, PayerEventsAnswer, SefazAdapter, SefazPort } from '../../domain/sefaz/port';
import { tlsAgent } from '../tls-agent';
import { AnswerCache } from './answer-cache';
import { consultEnvelope, distributionEnvelope, readConsultAnswer, readDistributionAnswer } from './messages';
import { soapExchange } from './soap-transport';
import { sefazAnswers } from '../../platform/telemetry/metrics';

/** Counts what SEFAZ answered (or that nothing usable came) for the `Sefaz*` alerts. */
async function counted<T extends { outcome: string }>(service: 'consult' | 'distribution', ask: Promise<T>): Promise<T> {
  try {
    const answer = await ask;
    sefazAnswers.inc({ service, outcome: answer.outcome });
    return answer;
  } catch (err) {
    sefazAnswers.inc({ service, outcome: 'unavailable' });
    throw err;
  }
}

/** What a key that rests (after a 656, or past the hourly limit with no earlier answer) is told: wait, as for a 656. */
const RESTING = { cStat: '656', reason: 'not asked: the key rests after too many requests', outcome: 'throttled', cached: true } as const;

/**
 * The SEFAZ port's adapter: `NFeConsultaProtocolo4` at the authorizer of the key's state, with the
 * platform's certificate, and `NFeDistribuicaoDFe` at the national environment with the party's
 * delegated certificate. The sandbox serves both with the same XML, so one adapter speaks to either.
 */
export class SefazClient implements SefazPort {
  private readonly platformAgent: Dispatcher | undefined;
  private readonly statuses: AnswerCache<NfeStatusAnswer>;
  private readonly distributions: AnswerCache<PayerEventsAnswer>;

  constructor(private readonly settings: SefazSettings, readonly adapter: SefazAdapter, private readonly now: () => Date = () => new Date()) {
    this.platformAgent = tlsAgent(settings.tls);
    const limits = { perHour: settings.perKeyPerHour, restMs: settings.throttleMs };
    this.statuses = new AnswerCache(limits, () => this.now().getTime());
    this.distributions = new AnswerCache(limits, () => this.now().getTime());
  }

  async consultStatus(key: string): Promise<NfeStatusAnswer> {
    const url = this.settings.authorizers[stateCodeOfKey(key)];
    if (!url) throw new Error(`no SEFAZ authorizer for state ${stateCodeOfKey(key)} (key ${key})`);
    const instead = this.statuses.instead(key);
    if (instead) return instead.answer ?? { ...RESTING, key, authorizedAt: null, digestValue: null, eventTypes: [], answeredAt: this.now().toISOString() };
    this.statuses.asking(key);
    const call = { url, action: CONSULT_SERVICE.action, envelope: consultEnvelope(key, this.settings.environment), dispatcher: this.platformAgent };
    const read = await counted('consult', soapExchange(call, this.settings, (text) => readConsultAnswer(text, key)));
    const answer: NfeStatusAnswer = { ...read, answeredAt: this.now().toISOString(), cached: false };
    this.statuses.answered(key, answer, answer.outcome === 'throttled');
    return answer;
  }

  async payerEvents(key: string, party: DistributionParty): Promise<PayerEventsAnswer> {
    const instead = this.distributions.instead(key);
    if (instead) return instead.answer ?? { ...RESTING, key, events: [], answeredAt: this.now().toISOString() };
    this.distributions.asking(key);
    const agent = party.certificate ? tlsAgent(this.settings.tls, party.certificate) : this.platformAgent;
    try {
      const call = { url: this.settings.distributionUrl, action: DISTRIBUTION_SERVICE.action, envelope: distributionEnvelope(key, this.settings.environment, party.document), dispatcher: agent };
      const read = await counted('distribution', soapExchange(call, this.settings, (text) => readDistributionAnswer(text, key)));
      const answer: PayerEventsAnswer = { ...read, answeredAt: this.now().toISOString(), cached: false };
      this.distributions.answered(key, answer, answer.outcome === 'throttled');
      return answer;
    } finally {
      if (agent !== this.platformAgent) await agent?.close();
    }
  }
}

/** The sandbox's adapter name when every URL is the sandbox's, so a stored check says which answered. */
function adapterOf(settings: SefazSettings): SefazAdapter {
  const urls = [...Object.values(settings.authorizers), settings.distributionUrl];
  return urls.every((url) => url.startsWith(settings.sandboxUrl)) ? 'sandbox' : 'sefaz';
}

/** The adapter a creation request uses: one attempt, within the creation's budget. */
export const sefazAtCreation = (settings: SefazSettings): SefazClient =>
  new SefazClient({ ...settings, timeoutMs: settings.creationBudgetMs, attempts: 1 }, adapterOf(settings));

/** The adapter the worker's check before the PIX uses: the configured timeouts and attempts, Temporal retrying beyond them. */
export const sefazBeforePayout = (settings: SefazSettings): SefazClient => new SefazClient(settings, adapterOf(settings));
