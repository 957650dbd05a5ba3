import { WorkflowNotFoundError } from '@temporalio/common';
import type { Knex } from 'knex';
import { AppError, NotFound } from '../../domain/errors';
import { OperationsRepository, TitleRow } from '../../db/repositories/operations';
import type { PayerPaymentInput, PayerPaymentResult } from '../../domain/lifecycle-messages';
import type { AuditedRequest } from '../../domain/audit-chain';
import { NOT_PAYABLE_YET, payerPaymentRefusal } from '../../domain/title-rules';
import { operationWorkflowId } from '../../domain/workflow-ids';
import { payerPaymentUpdate } from '../../workflows/operation/messages';
import type { TemporalHandle } from '../temporal/client';
import { claimExternalId, settleExternalId } from '../../db/repositories/external-id';
import { positiveAmount } from '../payables/inputs';
import { presentPayerPayment } from './presenter';
import { refusalError, workflowRefusal } from '../temporal/workflow-refusals';
import { updateWorkflow } from '../temporal/workflow-calls';
import type { Schema } from '../openapi/contract-types';

export interface PayerPaymentBody {
  paid_amount_brl: unknown;
  external_id: string;
  paid_at?: string | null;
}

/**
 * The workflow of the title's operation decides. Once it has closed (SETTLED, or the operation
 * ended without reaching PAID), the title's stored state answers as its validator would have.
 */
async function applyThroughWorkflow(temporal: TemporalHandle, titles: OperationsRepository, title: TitleRow, input: PayerPaymentInput, audit?: AuditedRequest): Promise<PayerPaymentResult> {
  try {
    return await updateWorkflow(temporal, operationWorkflowId(title.operationId), payerPaymentUpdate, { titleId: title.id, payment: input, audit });
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw workflowRefusal(err, 'title_payment_unavailable') ?? err;
    const now = (await titles.titleById(title.id))!;
    const refusal = payerPaymentRefusal({ status: now.status, outstandingBalance: now.outstandingBalance }, input.paidAmountBrl) ?? NOT_PAYABLE_YET;
    throw refusalError(refusal.code, refusal.detail);
  }
}

/**
 * A payer's payment on a title (backoffice or sandbox), deduplicated by (title, external_id). No
 * transaction is held while the workflow is asked (up to the update deadline): the external_id is
 * claimed and committed first, the workflow applies the payment exactly once per external_id (a
 * repeat answers what it applied), and what it answered is then stored for later retries. A
 * refusal applied nothing and frees the external_id; an unknown outcome (503) leaves the claim for
 * the retry, which the workflow answers. A staff action's `audit` travels with the update: the
 * activity that applies the payment writes its row in the payment's transaction (a replay writes none).
 */
export async function recordPayerPayment(
  deps: { temporal: TemporalHandle },
  db: Knex,
  originatorId: string,
  titleId: string,
  body: PayerPaymentBody,
  { audit, ...by }: Pick<PayerPaymentInput, 'channel' | 'recordedBy' | 'collected'> & { audit?: AuditedRequest },
): Promise<Schema<'PayerPayment'>> {
  const amount = positiveAmount(body.paid_amount_brl, 'paid_amount_brl');
  const titles = new OperationsRepository(db, originatorId);
  const title = await titles.titleById(titleId);
  if (!title) throw new NotFound('title_not_found');
  const input: PayerPaymentInput = { externalId: body.external_id, paidAmountBrl: amount.toString(), paidAt: body.paid_at ?? null, ...by };
  const claim = { grain: 'title_payer_payment', scope: title.id, externalId: body.external_id, request: { ...body } };
  const stored = await claimExternalId<ReturnType<typeof presentPayerPayment>>(db, claim);
  if (stored) return stored;
  let applied: PayerPaymentResult;
  try {
    applied = await applyThroughWorkflow(deps.temporal, titles, title, input, audit);
  } catch (err) {
    if (err instanceof AppError && err.status < 500) await settleExternalId(db, claim, null);
    throw err;
  }
  const payment = presentPayerPayment(title.operationId, applied);
  await settleExternalId(db, claim, payment);
  return { ...payment, idempotent_replay: applied.idempotentReplay };
}
