import type { Knex } from 'knex';
import { WebhookRecoveryRepository } from '../db/repositories/webhook-recoveries';
import { WebhookSubscriptionRepository } from '../db/repositories/webhooks';
import type { EventSender } from './webhook-send';
import { RECOVERY_BATCH, RecoveryInput, RecoveryStep } from '../domain/webhook-recovery';


export function createRecoveryActivities(db: Knex, send: EventSender) {
  return {
    /**
     * Re-delivers the next events of the window in order, one at a time, and stops at the first
     * one the endpoint does not take: the events after it wait, so the endpoint never receives an
     * object's later event before the earlier one it missed. Progress is in the recovery's row,
     * so a retried step resumes after the last event delivered.
     */
    async recoverWebhookEvents(input: RecoveryInput): Promise<RecoveryStep> {
      const recoveries = new WebhookRecoveryRepository(db, input.originatorId);
      const recovery = await recoveries.ensure({ id: input.recoveryId, subscriptionId: input.subscriptionId, since: new Date(input.since), until: new Date(input.until) });
      if (recovery.status !== 'running') return 'finished';
      const subscription = await new WebhookSubscriptionRepository(db, input.originatorId).find(input.subscriptionId);
      if (!subscription) {
        await recoveries.finish(recovery.id, 'cancelled');
        return 'finished';
      }
      const events = await recoveries.nextEvents(recovery, subscription, RECOVERY_BATCH);
      for (const event of events) {
        const result = await send(subscription, event, { timeoutMs: input.timeoutMs, nextRetryInMs: null });
        if (result !== 'delivered') {
          await recoveries.stalled(recovery.id, event.eventId, result === 'failed' ? 'endpoint_refused' : result);
          return 'stalled';
        }
        await recoveries.delivered(recovery.id, event.position);
      }
      if (events.length === RECOVERY_BATCH) return 'more';
      await recoveries.finish(recovery.id, 'completed');
      return 'finished';
    },

    /** The endpoint kept refusing the same event through the whole retry schedule. */
    async giveUpWebhookRecovery({ recoveryId, originatorId }: { recoveryId: string; originatorId: string }): Promise<void> {
      await new WebhookRecoveryRepository(db, originatorId).finish(recoveryId, 'failed');
    },
  };
}
