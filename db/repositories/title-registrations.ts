import type { Knex } from 'knex';
import type { NegotiationType, Registrar } from '../../domain/escriturador/negotiation';
import type { RefusalReason } from '../../domain/escriturador/port';
import type { RegistrationStatus, TitleRegistration } from '../../domain/escriturador/registration';
import { RECONCILED_STATUSES, type RegistrationMismatchKind } from '../../domain/escriturador/reconciliation';
import { recordTitleEvent, TitleFacts } from './record-events';

interface RegistrationRow {
  title_id: string; registrar: Registrar; duplicata_id: string; act_id: string | null; negotiation_type: NegotiationType;
  status: RegistrationStatus; registered_at: Date | string | null; refusal_reason: RefusalReason | null;
}

/** A row of `title_registrations` (read as a row, or as the JSON a title read joins in). */
export function registrationOf(row: RegistrationRow): TitleRegistration {
  return {
    titleId: row.title_id, registrar: row.registrar, duplicataId: row.duplicata_id, actId: row.act_id, negotiationType: row.negotiation_type,
    status: row.status, registeredAt: row.registered_at === null ? null : new Date(row.registered_at), refusalReason: row.refusal_reason,
  };
}

/** The column a title read selects: its registration as one JSON value, null when none is recorded. */
export const REGISTRATION_COLUMN = '(select to_jsonb(r) from title_registrations as r where r.title_id = titles.id) as registration';

function eventFacts(row: RegistrationRow): Record<string, unknown> {
  return {
    registrar: row.registrar, duplicata_id: row.duplicata_id, act_id: row.act_id, negotiation_type: row.negotiation_type,
    registered_at: row.registered_at === null ? null : new Date(row.registered_at).toISOString(), refusal_reason: row.refusal_reason,
  };
}

/** An act of ours to compare with the escriturador's record, with the title it is about. */
export type ReconciledRegistration = TitleRegistration & { actId: string; title: TitleFacts };

export interface RegistrationRequest {
  titleId: string;
  originatorId: string;
  operationId: string;
  registrar: Registrar;
  duplicataId: string;
  negotiationType: NegotiationType;
}

/** `title_registrations`: our act at the escriturador per title, and where it stands. */
export class TitleRegistrationsRepository {
  constructor(private readonly db: Knex) {}

  async ofOperation(operationId: string): Promise<TitleRegistration[]> {
    const rows: RegistrationRow[] = await this.db('title_registrations').where({ operation_id: operationId }).orderBy('title_id');
    return rows.map(registrationOf);
  }

  async ofTitle(titleId: string): Promise<TitleRegistration | null> {
    const row = await this.db('title_registrations').where({ title_id: titleId }).first();
    return row ? registrationOf(row) : null;
  }

  /**
   * Our acts the escriturador has answered: every one in force, and those cancelled or settled since
   * `since` (older ones have had their days of comparison), in title order; one originator's only, when given.
   */
  async toReconcile(since: Date, originatorId?: string): Promise<ReconciledRegistration[]> {
    const query = this.db('title_registrations as r').join('titles', 'titles.id', 'r.title_id').whereNotNull('r.act_id');
    if (originatorId !== undefined) query.where('r.originator_id', originatorId);
    const rows = await query.where((q) => q.where('r.status', 'registered').orWhere((old) => old.whereIn('r.status', RECONCILED_STATUSES).where('r.updated_at', '>=', since)))
      .orderBy('r.title_id').select('r.*', 'titles.external_id');
    return rows.map((row) => ({
      ...registrationOf(row), actId: row.act_id,
      title: { id: row.title_id, originatorId: row.originator_id, operationId: row.operation_id, externalId: row.external_id },
    }));
  }

  /** `registration.reconciliation_mismatch`, once per title, kind and `day` however often the day's reconciliation runs. */
  async mismatchFound(ours: ReconciledRegistration, kind: RegistrationMismatchKind, day: string, at: Date): Promise<void> {
    await recordTitleEvent(this.db, ours.title, 'registration.reconciliation_mismatch', {
      ...eventFacts({
        title_id: ours.titleId, registrar: ours.registrar, duplicata_id: ours.duplicataId, act_id: ours.actId, negotiation_type: ours.negotiationType,
        status: ours.status, registered_at: ours.registeredAt, refusal_reason: ours.refusalReason,
      }),
      registration_status: ours.status, kind, checked_at: at.toISOString(),
    }, `${kind}:${day}`, at);
  }

  /** Whose act is on this duplicata (the latest title that asked for it), null when none of ours. */
  async ofDuplicata(duplicataId: string): Promise<(TitleRegistration & { originatorId: string }) | null> {
    const row = await this.db('title_registrations').where({ duplicata_id: duplicataId }).orderBy('updated_at', 'desc').first();
    return row ? { ...registrationOf(row), originatorId: row.originator_id } : null;
  }

  /** Written before the escriturador is asked; a title asked again keeps its first request, which is returned. */
  async request(request: RegistrationRequest, at: Date): Promise<TitleRegistration> {
    const [row]: RegistrationRow[] = await this.db('title_registrations').insert({
      title_id: request.titleId, originator_id: request.originatorId, operation_id: request.operationId, registrar: request.registrar,
      duplicata_id: request.duplicataId, negotiation_type: request.negotiationType, status: 'requested', updated_at: at,
    }).onConflict('title_id').ignore().returning('*');
    return row ? registrationOf(row) : (await this.ofTitle(request.titleId))!;
  }

  /** With `title.registered`, in one transaction: a retried write changes nothing and records no second event. */
  async registered(title: TitleFacts, act: { actId: string; registeredAt: Date }, at: Date): Promise<void> {
    await this.db.transaction(async (trx) => {
      const [row] = await trx('title_registrations').where({ title_id: title.id, status: 'requested' })
        .update({ status: 'registered', act_id: act.actId, registered_at: act.registeredAt, updated_at: at }).returning('*');
      if (row) await recordTitleEvent(trx, title, 'title.registered', eventFacts(row), 0, at);
    });
  }

  /** With `title.registration_refused`, in one transaction. */
  async refused(title: TitleFacts, reason: RefusalReason, at: Date): Promise<void> {
    await this.db.transaction(async (trx) => {
      const [row] = await trx('title_registrations').where({ title_id: title.id, status: 'requested' })
        .update({ status: 'refused', refusal_reason: reason, updated_at: at }).returning('*');
      if (row) await recordTitleEvent(trx, title, 'title.registration_refused', eventFacts(row), 0, at);
    });
  }

  /** Our act no longer in force: the operation fell through, or the title went back to the assignor. */
  async cancelled(titleId: string, at: Date): Promise<void> {
    await this.db('title_registrations').where({ title_id: titleId }).whereIn('status', ['requested', 'registered']).update({ status: 'cancelled', updated_at: at });
  }

  async settled(titleId: string, at: Date): Promise<void> {
    await this.db('title_registrations').where({ title_id: titleId, status: 'registered' }).update({ status: 'settled', updated_at: at });
  }
}
