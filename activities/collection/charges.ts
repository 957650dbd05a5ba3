import type { Knex } from 'knex';
import type { Config } from '../../platform/config/config';
import { PixChargesRepository, ChargeTarget } from '../../db/repositories/pix-charges';
import { afterCommit, pixCharges } from '../../platform/telemetry/metrics';
import { recordTitleEvent } from '../../db/repositories/record-events';
import { TrackedTitlesRepository } from '../../db/repositories/tracked-titles';
import { txidOfTitle } from '../../domain/collection/txid';
import { Dec } from '../../domain/money';
import { overdueAt } from '../../domain/title-rules';
import { stampOf } from '../operations';
import type { ApiPixClient, Charge } from '../../providers/api-pix-client';

export interface CollectionDeps {
  db: Knex;
  psp: ApiPixClient;
  config: Pick<Config, 'collection' | 'http'>;
}

/** Where the PSP sends its notifications: API Pix appends `/pix` to it. */
export const collectionWebhookUrl = (publicUrl: string) => `${publicUrl}/v1/internal/pix-collection`;

/**
 * One charge per title at the PSP: the txid is the title's, so a retry finds the charge it
 * created (GET before PUT) and the row insert keeps the first.
 */
async function chargeOf(psp: ApiPixClient, target: ChargeTarget & { collectionPixKey: string }): Promise<Charge> {
  const txid = txidOfTitle(target.titleId);
  const existing = await psp.getCharge(txid);
  if (existing) return existing;
  const charge = await psp.putCharge({
    txid, dueDate: target.dueDate, validAfterDueDays: target.graceDays, debtor: { document: target.payerDocument, name: target.payerName },
    amount: target.outstandingBalance, finePct: new Dec(target.lateFeePct).toFixed(2), interestMonthlyPct: new Dec(target.lateInterestMonthlyPct).toFixed(2),
    pixKey: target.collectionPixKey,
  });
  pixCharges.inc({ outcome: 'issued' });
  return charge;
}

export function createCollectionActivities({ db, psp, config }: CollectionDeps) {
  return {
    /**
     * A closed title's charge stops being payable: removed at the PSP unless it is paid there
     * already (CONCLUIDA). A title that turned OVERDUE records `pix_charge.expired`. Idempotent: a
     * charge no longer ATIVA here is left alone. `at` is the operation's test clock time, when it has one.
     */
    async closePixCharge({ titleId, at }: { titleId: string; at?: string }): Promise<void> {
      const now = stampOf({ at });
      const charges = new PixChargesRepository(db);
      const charge = await charges.ofTitle(titleId);
      if (!charge || charge.status !== 'ATIVA') return;
      const atPsp = await psp.getCharge(charge.txid);
      const closed = atPsp && atPsp.status === 'ATIVA' ? await psp.removeCharge(charge.txid) : atPsp;
      await db.transaction(async (trx) => {
        const title = await new TrackedTitlesRepository(trx).lock(titleId);
        await new PixChargesRepository(trx).update(charge.txid, closed
          ? { status: closed.status, revision: closed.revision, amountBrl: closed.amount }
          : { status: 'REMOVIDA_PELO_PSP', revision: charge.revision, amountBrl: charge.amountBrl });
        if (title?.status !== 'OVERDUE') return;
        await recordTitleEvent(trx, title, 'pix_charge.expired', { txid: charge.txid, expired_at: now.toISOString(), outstanding_balance: title.outstandingBalance }, 0, now);
        afterCommit(trx, () => pixCharges.inc({ outcome: 'expired' }));
      });
      if (closed?.status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR') pixCharges.inc({ outcome: 'removed' });
    },

    /**
     * At PAID: a `cobv` for each title still owed, on the originator's collection key. Nothing
     * when collection is off or the originator has no key; the titles are then paid as before.
     */
    async issuePixCharges({ operationId }: { operationId: string }): Promise<number> {
      if (config.collection.callbackSecret === null) return 0;
      const charges = new PixChargesRepository(db);
      const targets = (await charges.targetsOfOperation(operationId)).filter((t): t is ChargeTarget & { collectionPixKey: string } => t.collectionPixKey !== null);
      const keys = new Set(targets.map((t) => t.collectionPixKey));
      for (const key of keys) await psp.setWebhook(key, collectionWebhookUrl(config.http.publicUrl));
      let issued = 0;
      for (const target of targets) {
        if (await charges.ofTitle(target.titleId)) continue;
        const charge = await chargeOf(psp, target);
        await charges.insert({
          originatorId: target.originatorId, titleId: target.titleId, txid: charge.txid, status: charge.status, revision: charge.revision,
          amountBrl: charge.amount, brCode: charge.brCode, location: charge.location, expiresAt: new Date(overdueAt(target.dueDate, target.graceDays)),
        });
        issued += 1;
      }
      return issued;
    },
  };
}
