import type { Knex } from 'knex';
import { OpenTitleNfe, TitleDisputesRepository } from '../db/repositories/title-disputes';
import { checkedAtSefaz } from '../domain/sefaz/creation-refusal';
import type { SefazPort } from '../domain/sefaz/port';
import { recheckWindowOpen, titleDispute } from '../domain/sefaz/title-dispute';
import { SefazError } from '../providers/provider-errors';
import type { CipherRing } from '../platform/crypto/cipher-ring';
import { issuerParties } from './issuer-party';

export interface TitleNfeRecheckDeps {
  db: Knex;
  sefaz: SefazPort;
  /** Opens the issuers' delegated certificates. */
  ring: CipherRing;
  now?: () => Date;
}

/** Keys asked at once: SEFAZ is shared with creation and the checks before the PIX. */
const AT_ONCE = 4;

/**
 * The daily re-check of open titles' NF-e after payout (the `title-nfe-recheck` Schedule): each
 * model-55 key still within 180 days of authorization is asked again, and a cancelled NF-e or a payer
 * disowning it puts the title in dispute, once. SEFAZ giving no verdict on a key leaves it for the
 * next run; nothing here moves money.
 */
export function createTitleNfeRecheckActivities({ db, sefaz, ring, now = () => new Date() }: TitleNfeRecheckDeps) {
  const disputes = new TitleDisputesRepository(db);

  const recheck = async (title: OpenTitleNfe, partyOf: ReturnType<typeof issuerParties>): Promise<boolean> => {
    try {
      const [status, payer] = await Promise.all([sefaz.consultStatus(title.key), partyOf(title).then((party) => sefaz.payerEvents(title.key, party))]);
      const dispute = titleDispute(status, payer);
      return dispute !== null && disputes.dispute(title, dispute, now());
    } catch (err) {
      if (err instanceof SefazError) return false;
      throw err;
    }
  };

  return {
    /** How many titles this run put in dispute; a second run the same day finds them disputed already. */
    async recheckOpenTitleNfes(): Promise<number> {
      const due = (await disputes.undisputedOpen()).filter((title) => checkedAtSefaz(title.key) && recheckWindowOpen(title.key, now()));
      const partyOf = issuerParties(db, ring);
      let disputed = 0;
      for (let i = 0; i < due.length; i += AT_ONCE) {
        disputed += (await Promise.all(due.slice(i, i + AT_ONCE).map((title) => recheck(title, partyOf)))).filter(Boolean).length;
      }
      return disputed;
    },
  };
}
