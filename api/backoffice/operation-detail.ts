import type { Knex } from 'knex';
import type { EsignProvider } from '../../providers/esign-client';
import { NotFound } from '../../domain/errors';
import { BackofficeRepository, type TimelineEvent } from '../../db/repositories/backoffice';
import { ContractsRepository } from '../../db/repositories/contracts';
import type { Config } from '../../platform/config/config';
import { renderOperation } from '../operations/presenter';
import { TestClocksRepository } from '../../db/repositories/test-clocks';
import { workflowLink } from './temporal-web';
import { approvalProgress } from './approval-progress';
import { type LiveSigners, presentOperationPage } from './presenter';

/**
 * The signers of the contract in force, read live from the provider as the integrator's route
 * does, without `sign_url`: that is the signer's credential, not staff's. A provider failure
 * leaves the rest of the page readable.
 */
async function signersOf(db: Knex, esign: EsignProvider, operationId: string): Promise<LiveSigners> {
  const contract = await new ContractsRepository(db).active(operationId);
  if (!contract?.providerDocumentId) return { documentStatus: null, signers: null, error: null };
  try {
    const document = await esign.getDocument(contract.providerDocumentId);
    return { documentStatus: document.documentStatus, signers: document.signers.map((s) => ({ name: s.name, status: s.status, signed: s.signed })), error: null };
  } catch {
    return { documentStatus: null, signers: null, error: 'esign_unavailable' };
  }
}

const USER_ACTOR = /^user:([0-9a-f-]{36})$/;

/** The user an event names as its actor (`approved_by` on PRE_APPROVED, `actor` on DENIED and CANCELLED), if a user. */
function actorUserOf(event: TimelineEvent): string | undefined {
  const actor = event.data.approved_by ?? event.data.actor;
  return typeof actor === 'string' ? USER_ACTOR.exec(actor)?.[1] : undefined;
}

/** The e-mail of the user each event names, by event id, read now (integrators' events keep the id only). */
async function actorEmailsOf(repository: BackofficeRepository, events: readonly TimelineEvent[]): Promise<Map<string, string>> {
  const emails = await repository.emailsOfUsers([...new Set(events.map(actorUserOf).filter((id) => id !== undefined))]);
  return new Map(events.flatMap((e) => {
    const email = emails.get(actorUserOf(e) ?? '');
    return email === undefined ? [] : [[e.eventId, email]];
  }));
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
  const [operation, rows, signers, progress] = await Promise.all([
    renderOperation(deps.db, op.originatorId, op.id, 'read'),
    repository.detailOf(op),
    signersOf(deps.db, deps.esign, op.id),
    approvalProgress(deps.db, [op]),
  ]);
  const clock = operation.test_clock_id ? await new TestClocksRepository(deps.db, op.originatorId).byId(operation.test_clock_id) : undefined;
  return presentOperationPage({
    operation, decision: op, progress: progress.get(op.id)!, rows, signers,
    actorEmails: await actorEmailsOf(repository, rows.events),
    temporalWebUrl: workflowLink(deps.config, op.id),
    clock,
  });
}
