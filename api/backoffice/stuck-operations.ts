import type { Knex } from 'knex';
import { STUCK_RULES, stuckSince } from '../../domain/stuck-operations';
import { BackofficeRepository } from '../../db/repositories/backoffice';
import type { Config } from '../../platform/config/config';
import { workflowLink } from './temporal-web';
import type { ResponseBody } from '../openapi/contract-types';

/** `GET /v1/backoffice/stuck-operations`: longest waiting first, each with what unsticks it. */
export async function stuckOperations(deps: { db: Knex; config: Config }, now: Date, limit: number, offset: number): Promise<ResponseBody<'stuckOperations', 200>> {
  const cutoffs = STUCK_RULES.map((rule) => ({ status: rule.status, enteredBefore: stuckSince(rule, now) }));
  const { items, total } = await new BackofficeRepository(deps.db).stuck(cutoffs, limit, offset);
  return {
    items: items.map((op) => {
      const rule = STUCK_RULES.find((r) => r.status === op.lifecycleStatus)!;
      return {
        id: op.id, display_number: op.displayNumber, lifecycle_status: op.lifecycleStatus,
        originator_id: op.originatorId, originator_name: op.originatorName, assignor_name: op.assignorName,
        opr_net_present_liquid_value: op.oprNetPresentLiquidValue,
        in_state_since: op.updatedAt.toISOString(),
        waiting_seconds: Math.max(0, Math.floor((now.getTime() - op.updatedAt.getTime()) / 1000)),
        threshold_seconds: rule.thresholdSeconds,
        action: rule.action,
        action_route: rule.actionRoute?.replace('{id}', op.id) ?? null,
        temporal_web_url: workflowLink(deps.config, op.id),
      };
    }),
    total, limit, offset,
  };
}
