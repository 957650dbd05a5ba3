import type { Knex } from 'knex';
import { STUCK_RULES, stuckSince } from '../../domain/stuck-operations';
import { BackofficeRepository } from '../../db/repositories/backoffice';
import type { Config } from '../../db/config';
import { workflowLink } from './temporal-web';

/** `GET /v1/backoffice/stuck-operations`: longest waiting first, each with what unsticks it. */
export async function stuckOperations(deps: { db: Knex; config: Config }, now: Date, limit: number, offset: number) {
  const cutoffs = STUCK_RULES.map((rule) => ({ status: rule.status, enteredBefore: stuckSince(rule, now) }));
  const { items, total } = await new BackofficeRepository(deps.db).stuck(cutoffs, limit, offset);
  return {
    items: items.map((op) => {
      const rule = STUCK_RULES.find((r) => r.status === op.lifecycle_status)!;
      return {
        id: op.id, display_number: op.display_number, lifecycle_status: op.lifecycle_status,
        originator_id: op.originator_id, originator_name: op.originator_name, assignor_name: op.assignor_name,
        opr_net_present_liquid_value: op.opr_net_present_liquid_value,
        in_state_since: op.updated_at.toISOString(),
        waiting_seconds: Math.max(0, Math.floor((now.getTime() - op.updated_at.getTime()) / 1000)),
        threshold_seconds: rule.thresholdSeconds,
        action: rule.action,
        action_route: rule.actionRoute?.replace('{id}', op.id) ?? null,
        temporal_web_url: workflowLink(deps.config, op.id),
      };
    }),
    total, limit, offset,
  };
}
