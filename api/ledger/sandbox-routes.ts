import { Router } from 'express';
import type { Config } from '../../platform/config/config';
import { Conflict, ProviderFailed } from '../../domain/errors';
import { FUNDING_LINE_DIRECTION } from '../../domain/ledger/funding-postings';
import { ApiPixClient } from '../../providers/api-pix-client';
import { PayoutPspSandbox } from '../../providers/psp-account-lines';
import { PixCollectionError, PixError } from '../../providers/provider-errors';
import { handle } from '../http/handle';
import { answeringProviderFailure } from '../http/provider-failure';
import { body, tenantOf } from '../http/request-helpers';
import { positiveAmount } from '../payables/inputs';

/** The sandbox PSPs' top-ups, sweeps and fees, booked to the caller's sub-account; production's document lacks the route, hence 404 there. */
export function ledgerSandboxRoutes(deps: { config: Config }): Router {
  const router = Router();
  const { providers, collection } = deps.config;
  const payout = new PayoutPspSandbox(providers.pixUrl, providers.timeoutMs);
  const collecting = collection.callbackSecret === null ? null : new ApiPixClient({ ...collection, timeoutMs: providers.timeoutMs });

  router.post('/v1/sandbox/pix/statement-lines', handle(async (req) => {
    const sent = body<'addSandboxStatementLine'>(req);
    const amount = positiveAmount(sent.amount, 'amount').toString();
    const subAccount = tenantOf(req);
    if (sent.account === 'collection' && collecting === null) {
      throw new Conflict({ code: 'psp_account_not_in_use', message: 'This deployment collects no PIX: it has no collection PSP account' });
    }
    const line = sent.account === 'payout'
      ? await answeringProviderFailure(PixError, () => new ProviderFailed('pix_unavailable'), () => payout.addAccountLine(sent.kind, amount, subAccount))
      : await answeringProviderFailure(PixCollectionError, () => new ProviderFailed('pix_collection_unavailable'), () => collecting!.addAccountLine(sent.kind, amount, subAccount));
    return {
      status: 201,
      body: { id: line.id, account: sent.account, kind: sent.kind, direction: FUNDING_LINE_DIRECTION[sent.kind], amount: line.amount, at: line.at },
    };
  }));
  return router;
}
