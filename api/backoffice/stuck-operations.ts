import type { Knex } from 'knex';
import { AWAITING_PAYER_ACTION, AWAITING_REGISTRAR_ACTION, STUCK_RULES, stuckSince } from '../../domain/stuck-operations';
import { actAwaited } from '../../domain/escriturador/registration';
import { checkedAtSefaz } from '../../domain/sefaz/creation-refusal';
import { BackofficeRepository, type StuckItem } from '../../db/repositories/backoffice';
import { NfeChecksRepository, StoredNfeCheck } from '../../db/repositories/nfe-checks';
import { RegistrationSettingsRepository } from '../../db/repositories/registration-settings';
import { TitleRegistrationsRepository } from '../../db/repositories/title-registrations';
import type { Config } from '../../platform/config/config';
import { workflowLink } from './temporal-web';
import type { ResponseBody, Schema } from '../openapi/contract-types';

/** `GET /v1/backoffice/stuck-operations`: longest waiting first, each with what unsticks it. */
export async function stuckOperations(deps: { db: Knex; config: Config }, now: Date, limit: number, offset: number): Promise<ResponseBody<'stuckOperations', 200>> {
  const cutoffs = STUCK_RULES.map((rule) => ({ status: rule.status, enteredBefore: stuckSince(rule, now), nfeCheckPending: rule.nfeCheckPending, titleDisputed: rule.titleDisputed }));
  const { items, total } = await new BackofficeRepository(deps.db).stuck(cutoffs, limit, offset);
  const waitingAtNfeCheck = await pendingNfeChecks(deps.db, items.filter((op) => STUCK_RULES.some((r) => r.status === op.lifecycleStatus && r.nfeCheckPending)).map((op) => op.id));
  const waitingAtRegistrar = await registrationWaits(deps.db, items.filter((op) => op.lifecycleStatus === 'SIGNED' && !waitingAtNfeCheck.has(op.id)));
  return {
    items: items.map((op) => {
      const check = waitingAtNfeCheck.get(op.id);
      const registrationWait = waitingAtRegistrar.get(op.id);
      // SIGNED has two rules: held at the NF-e check (at once), or waiting longer on anything else before the PIX (the escriturador).
      const rule = STUCK_RULES.find((r) => r.status === op.lifecycleStatus && (!r.nfeCheckPending || check !== undefined))!;
      return {
        id: op.id, display_number: op.displayNumber, lifecycle_status: op.lifecycleStatus,
        originator_id: op.originatorId, originator_name: op.originatorName, assignor_name: op.assignorName,
        opr_net_present_liquid_value: op.oprNetPresentLiquidValue,
        in_state_since: op.updatedAt.toISOString(),
        waiting_seconds: Math.max(0, Math.floor((now.getTime() - op.updatedAt.getTime()) / 1000)),
        threshold_seconds: rule.thresholdSeconds,
        action: check?.reason === 'payer_confirmation_missing' ? AWAITING_PAYER_ACTION : registrationWait ? AWAITING_REGISTRAR_ACTION : rule.action,
        action_route: rule.actionRoute?.replace('{id}', op.id) ?? null,
        temporal_web_url: workflowLink(deps.config, op.id),
        ...(check ? {
          nfe_check: { title_id: check.titleId, nfe_key: check.key, reason: check.reason, cstat: check.cStat, xmotivo: check.xMotivo, checked_at: check.checkedAt.toISOString() },
        } : {}),
        ...(registrationWait ? { registration_wait: registrationWait } : {}),
      };
    }),
    total, limit, offset,
  };
}

/** Per operation, the pending latest NF-e check that holds it: one SEFAZ gave no verdict on before one awaiting its payer (that wait ends only after SEFAZ's). */
async function pendingNfeChecks(db: Knex, operationIds: string[]): Promise<Map<string, StoredNfeCheck>> {
  if (operationIds.length === 0) return new Map();
  const latest = (await new NfeChecksRepository(db).latestOf(operationIds)).values();
  const holding = new Map<string, StoredNfeCheck>();
  for (const check of latest) {
    if (check.status !== 'pending') continue;
    const held = holding.get(check.operationId);
    if (!held || (held.reason !== null && check.reason === null)) holding.set(check.operationId, check);
  }
  return holding;
}

/**
 * Per operation of `signed` whose originator registers at an escriturador, the NF-e titles whose
 * act is still awaited (the titles `registerOperationActs` registers); none when every act answered.
 */
async function registrationWaits(db: Knex, signed: readonly StuckItem[]): Promise<Map<string, Schema<'StuckRegistrationWait'>>> {
  if (signed.length === 0) return new Map();
  const registrars = await new RegistrationSettingsRepository(db).registrarsOf([...new Set(signed.map((op) => op.originatorId))]);
  const waits = new Map<string, Schema<'StuckRegistrationWait'>>();
  await Promise.all(signed.filter((op) => registrars.has(op.originatorId)).map(async (op) => {
    const [titles, recorded] = await Promise.all([new NfeChecksRepository(db).titleNfes(op.id), new TitleRegistrationsRepository(db).ofOperation(op.id)]);
    const actOf = new Map(recorded.map((registration) => [registration.titleId, registration]));
    const awaited = titles.filter((title) => checkedAtSefaz(title.key) && actAwaited(actOf.get(title.titleId)));
    if (awaited.length === 0) return;
    waits.set(op.id, {
      registrar: registrars.get(op.originatorId)!,
      titles: awaited.map((title) => ({ title_id: title.titleId, external_id: title.externalId, status: actOf.has(title.titleId) ? 'requested' : 'not_requested' })),
    });
  }));
  return waits;
}
