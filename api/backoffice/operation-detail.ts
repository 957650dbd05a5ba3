import type { Knex } from 'knex';
import type { EsignProvider } from '../../activities/esign-client';
import { NotFound } from '../../domain/errors';
import { BackofficeRepository } from '../../db/repositories/backoffice';
import { ContractsRepository } from '../../db/repositories/contracts';
import type { Config } from '../../db/config';
import { renderOperation } from '../operations/routes';
import { TestClocksRepository } from '../../db/repositories/test-clocks';
import { presentTestClock } from '../test-clocks/routes';
import { workflowLink } from './temporal-web';
import { approvalProgress } from './approval-progress';

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value ?? null);

/** Rows with timestamps as ISO strings, as JSON carries them. */
function withIsoDates(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]));
}

/**
 * The signers of the contract in force, read live from the provider as the integrator's route
 * does, without `sign_url`: that is the signer's credential, not staff's. A provider failure
 * leaves the rest of the page readable.
 */
async function signersOf(db: Knex, esign: EsignProvider, operationId: string) {
  const contract = await new ContractsRepository(db).active(operationId);
  if (!contract?.providerDocumentId) return { signers: null, signers_error: null };
  try {
    const document = await esign.getDocument(contract.providerDocumentId);
    return {
      document_status: document.documentStatus,
      signers: document.signers.map((s) => ({ name: s.name, status: s.status, signed: s.signed })),
      signers_error: null,
    };
  } catch {
    return { signers: null, signers_error: 'esign_unavailable' };
  }
}

const USER_ACTOR = /^user:([0-9a-f-]{36})$/;

/** The user an event names as its actor (`approved_by` on PRE_APPROVED, `actor` on DENIED and CANCELLED), if a user. */
function actorUserOf(data: Record<string, unknown>): string | undefined {
  const actor = data.approved_by ?? data.actor;
  return typeof actor === 'string' ? USER_ACTOR.exec(actor)?.[1] : undefined;
}

/**
 * `GET /v1/backoffice/operations/{id}`: the operation as integrators read it, plus what staff
 * need to decide on it: the parties, every contract dispatch and PIX attempt, payer payments,
 * and the timeline of its events.
 */
export async function operationDetail(deps: { db: Knex; esign: EsignProvider; config: Config }, id: string) {
  const repository = new BackofficeRepository(deps.db);
  const op = await repository.operation(id);
  if (!op) throw new NotFound('operation_not_found');
  const [operation, rows, live, progress] = await Promise.all([
    renderOperation(deps.db, op.originatorId, op.id, 'read'),
    repository.detailOf(op),
    signersOf(deps.db, deps.esign, op.id),
    approvalProgress(deps.db, [op]),
  ]);
  const emails = await repository.emailsOfUsers([...new Set(rows.events.map((e) => actorUserOf(e.data)).filter((id) => id !== undefined))]);
  const clock = operation.test_clock_id ? await new TestClocksRepository(deps.db, op.originatorId).byId(operation.test_clock_id) : undefined;
  return {
    operation,
    ...progress.get(op.id)!,
    originator: rows.originator,
    assignor: rows.assignor,
    approved_at: iso(op.approvedAt),
    deny_reason: op.denyReason,
    cancel_reason: op.cancelReason,
    contracts: rows.contracts.map(withIsoDates),
    contract_signers: { document_status: null, ...live },
    disbursements: rows.disbursements.map(withIsoDates),
    payer_payments: rows.payments.map(withIsoDates),
    timeline: rows.events.map((e) => ({
      event_id: e.event_id, event_type: e.event_type, occurred_at: e.occurred_at.toISOString(), data: e.data,
      actor_email: emails.get(actorUserOf(e.data) ?? '') ?? null,
      deliveries: rows.deliveries.filter((d) => d.event_id === e.event_id).map(({ event_id: _, ...d }) => withIsoDates(d)),
    })),
    temporal_web_url: workflowLink(deps.config, op.id),
    test_clock: clock ? presentTestClock(clock) : null,
  };
}
