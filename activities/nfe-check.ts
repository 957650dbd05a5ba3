import { ApplicationFailure } from '@temporalio/activity';
import type { Knex } from 'knex';
import { NfeChecksRepository, NfePolicies, TitleNfe } from '../db/repositories/nfe-checks';
import { checkedAtSefaz } from '../domain/sefaz/creation-refusal';
import { NfeCancellationReason, NfeCheckOutcome, payoutCheck } from '../domain/sefaz/payout-check';
import type { SefazPort } from '../domain/sefaz/port';
import { beyondConsultAgeAccepted } from '../domain/sefaz/consult-age';
import { SefazError } from '../providers/provider-errors';
import type { CipherRing } from '../platform/crypto/cipher-ring';
import { issuerParties } from './issuer-party';

export interface NfeCheckActivityDeps {
  db: Knex;
  sefaz: SefazPort;
  /** Opens the issuers' delegated certificates. */
  ring: CipherRing;
  now?: () => Date;
}

/** The first receivable whose NF-e failed its check: the operation is cancelled with `reason`. */
export interface NfeRefusal {
  reason: NfeCancellationReason;
  externalId: string;
  key: string;
  cStat: string;
  xMotivo: string;
}

/** What the check before the PIX found: no refusal and no wait when every NF-e passed. */
export interface NfeCheckResult {
  refusal: NfeRefusal | null;
  /** Set, with no refusal, when every NF-e passed but some payer has not confirmed yet under a `required` product: how many days the PIX may wait for it. */
  awaitingPayer?: { deadlineDays: number };
}

/** The code of the retryable failure while SEFAZ gives no verdict: the workflow's retry policy waits it out. */
export const SEFAZ_NO_VERDICT = 'sefaz_no_verdict';

/**
 * The check of every NF-e (model 55) of an operation at SEFAZ right before its PIX. Each answer is
 * stored; asking again is harmless (a new row, the latest counts), so the activity is retried
 * freely. A refusal is an answer; SEFAZ unreachable or giving no verdict for some key (and none
 * refused) throws a retryable failure, so the operation waits and never pays unchecked. A payer who
 * has not confirmed under a `required` product is an answer too: the workflow decides when to ask again.
 */
export function createNfeCheckActivities({ db, sefaz, ring, now = () => new Date() }: NfeCheckActivityDeps) {
  const checks = new NfeChecksRepository(db);

  const checkOne = async (title: TitleNfe, policies: NfePolicies, partyOf: ReturnType<typeof issuerParties>): Promise<NfeCheckOutcome | null> => {
    try {
      const [status, payer] = await Promise.all([sefaz.consultStatus(title.key), partyOf(title).then((party) => sefaz.payerEvents(title.key, party))]);
      return payoutCheck(status, payer, {
        payerConfirmation: policies.payerConfirmation.policy,
        beyondConsultAgeAccepted: beyondConsultAgeAccepted(policies.nfeBeyondConsultAge, title.provenByXml),
      });
    } catch (err) {
      if (err instanceof SefazError) return null;
      throw err;
    }
  };

  return {
    async checkNfesBeforePayout({ operationId }: { operationId: string }): Promise<NfeCheckResult> {
      const titles = (await checks.titleNfes(operationId)).filter((title) => checkedAtSefaz(title.key));
      if (titles.length === 0) return { refusal: null };
      const policies = await checks.policiesOf(operationId);
      const partyOf = issuerParties(db, ring);
      const outcomes = await Promise.all(titles.map((title) => checkOne(title, policies, partyOf)));
      const at = now();
      await checks.record(titles.flatMap((title, i) => {
        const outcome = outcomes[i];
        return outcome ? [{ title, operationId, outcome, adapter: sefaz.adapter, at }] : [];
      }));
      const refused = titles.findIndex((_, i) => outcomes[i]?.status === 'refused');
      if (refused >= 0) {
        const { reason, key, cStat, xMotivo } = outcomes[refused]!;
        return { refusal: { reason: reason!, externalId: titles[refused].externalId, key, cStat, xMotivo } };
      }
      const waiting = titles.filter((_, i) => outcomes[i]?.status !== 'passed' && outcomes[i]?.reason !== 'payer_confirmation_missing');
      if (waiting.length > 0) {
        throw ApplicationFailure.retryable(`SEFAZ gave no verdict on ${waiting.map((title) => title.key).join(', ')} yet`, SEFAZ_NO_VERDICT);
      }
      const unconfirmed = outcomes.some((outcome) => outcome?.status === 'pending');
      return unconfirmed ? { refusal: null, awaitingPayer: { deadlineDays: policies.payerConfirmation.deadlineDays } } : { refusal: null };
    },
  };
}

export type NfeCheckActivities = ReturnType<typeof createNfeCheckActivities>;
