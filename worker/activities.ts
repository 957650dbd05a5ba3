import type { Knex } from 'knex';
import type { Config } from '../platform/config/config';
import type { Logger } from '../platform/logger';
import type { HostResolver } from '../domain/url-guard';
import { createWebhookActivities } from '../activities/webhooks';
import { createOperationActivities } from '../activities/operations';
import { createContractActivities } from '../activities/contract';
import { createDisbursementActivities } from '../activities/disbursement';
import { createTitleActivities } from '../activities/titles';
import { createTestClockActivities } from '../activities/test-clocks';
import { HttpEsignProvider } from '../providers/esign-client';
import { HttpPixProvider } from '../providers/pix-client';
import { createCollectionActivities } from '../activities/collection/charges';
import { createCollectionSweepActivities } from '../activities/collection/sweep-trigger';
import { createLedgerAccrualActivities } from '../activities/ledger-accrual';
import { createLedgerReconciliationActivities, statementSources } from '../activities/ledger-reconciliation';
import { ApiPixClient } from '../providers/api-pix-client';
import { createAuditCheckpointActivities } from '../activities/audit-checkpoint';
import { CipherRing } from '../platform/crypto/cipher-ring';
import { createNfeCheckActivities } from '../activities/nfe-check';
import { createTitleNfeRecheckActivities } from '../activities/title-nfe-recheck';
import { sefazBeforePayout } from '../providers/sefaz/client';
import { createRegistrationActivities } from '../activities/registration';
import { createRegistrationReconciliationActivities } from '../activities/registration-reconciliation';
import { HttpEscriturador } from '../providers/escriturador/client';

export interface ActivityDeps {
  db: Knex;
  config: Config;
  logger: Logger;
  /** Webhook hosts to addresses: the system's DNS, or a fixed table in tests. */
  resolveHost: HostResolver;
}

/** Every activity the worker registers, each group built by its factory from the shared deps. */
export function createActivities(deps: ActivityDeps): Record<string, (...args: never[]) => Promise<unknown>> {
  const { db, config } = deps;
  const { esignUrl, pixUrl, timeoutMs } = config.providers;
  const ring = new CipherRing(config.payloadKeys);
  return {
    ...createWebhookActivities(deps),
    ...createOperationActivities({ db }),
    ...createContractActivities({ db, esign: new HttpEsignProvider(esignUrl, timeoutMs), esignCallbackUrl: `${config.http.publicUrl}/v1/internal/esign/callback` }),
    ...createDisbursementActivities({ db, pix: new HttpPixProvider(pixUrl, timeoutMs), pixCallbackUrl: `${config.http.publicUrl}/v1/internal/pix/callback` }),
    ...createTitleActivities({ db, config }),
    ...createTestClockActivities({ db }),
    ...createCollectionActivities({ db, config, psp: new ApiPixClient({ ...config.collection, timeoutMs }) }),
    ...createCollectionSweepActivities({ config }),
    ...createNfeCheckActivities({ db, sefaz: sefazBeforePayout(config.sefaz), ring }),
    ...createTitleNfeRecheckActivities({ db, sefaz: sefazBeforePayout(config.sefaz), ring }),
    ...createRegistrationActivities({ db, escriturador: new HttpEscriturador(config.registrar) }),
    ...createRegistrationReconciliationActivities({ db, escriturador: new HttpEscriturador(config.registrar) }),
    ...createAuditCheckpointActivities({ db, cipher: ring, logPath: config.audit.checkpointLog }),
    ...createLedgerAccrualActivities({ db }),
    ...createLedgerReconciliationActivities({ db, sources: statementSources(config) }),
  };
}
