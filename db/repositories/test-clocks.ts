import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { deletesAfter, TestClockStatus } from '../../domain/test-clocks';
import { fromColumns } from './columns';
import { newestFirst, paged, Page } from './pagination';
import { TenantScopedRepository } from './tenant-scoped';

export interface TestClockRow {
  id: string;
  originatorId: string;
  name: string | null;
  frozenTime: Date;
  status: TestClockStatus;
  createdAt: Date;
  deletesAfter: Date;
  deletedAt: Date | null;
}

/** The originator's live test clocks: a deleted one is not found. */
export class TestClocksRepository extends TenantScopedRepository {
  private live(): Knex.QueryBuilder {
    return this.scoped('test_clocks').whereNull('deleted_at');
  }

  async create(input: { name: string | null; frozenTime: Date }, now: Date): Promise<TestClockRow> {
    const [row] = await this.insertOwned('test_clocks', {
      id: uuidv7(), name: input.name, frozen_time: input.frozenTime, status: 'ready', created_at: now, updated_at: now, deletes_after: deletesAfter(now),
    }).returning('*');
    return fromColumns<TestClockRow>(row);
  }

  async byId(id: string): Promise<TestClockRow | undefined> {
    const row = await this.live().where({ id }).first();
    return row && fromColumns<TestClockRow>(row);
  }

  async list(limit: number, offset: number): Promise<Page<TestClockRow>> {
    const { items, total } = await paged<Record<string, unknown>>(() => this.live(), newestFirst(), limit, offset);
    return { items: items.map((row) => fromColumns<TestClockRow>(row)), total };
  }

  /** True when a live clock was deleted now. */
  async delete(id: string): Promise<boolean> {
    return (await this.live().where({ id }).update({ deleted_at: this.db.fn.now(), updated_at: this.db.fn.now() })) > 0;
  }
}

/** The originator of a live clock, for staff routes (any originator's clock). */
export async function clockOwner(db: Knex, id: string): Promise<string | undefined> {
  return (await db('test_clocks').where({ id }).whereNull('deleted_at').first('originator_id'))?.originator_id;
}

/** The time of the clock an operation lives on, deleted or not (it stays at its last time); null off a clock. */
export async function operationClockTime(db: Knex, operationId: string): Promise<Date | null> {
  const row = await db('operations as o').join('test_clocks as c', 'c.id', 'o.test_clock_id').where('o.id', operationId).first('c.frozen_time');
  return row?.frozen_time ?? null;
}

/** The clock workflow's writes: it owns the status and the time (any tenant's clock, by id). */
export class TestClockMovesRepository {
  constructor(private readonly db: Knex) {}

  /** Advancing to `frozenTime`: the row as it was, or null when it already says so (a retried write). */
  async advancing(id: string, frozenTime: Date): Promise<TestClockRow | null> {
    const row = await this.db('test_clocks').where({ id }).forUpdate().first();
    if (!row || (row.status === 'advancing' && new Date(row.frozen_time).getTime() === frozenTime.getTime())) return null;
    await this.db('test_clocks').where({ id }).update({ status: 'advancing', frozen_time: frozenTime, updated_at: new Date() });
    return fromColumns<TestClockRow>(row);
  }

  /** Ready at `frozenTime`; null when a later advance has already moved the row on (a retried write). */
  async ready(id: string, frozenTime: Date): Promise<TestClockRow | null> {
    const [row] = await this.db('test_clocks').where({ id, frozen_time: frozenTime, status: 'advancing' })
      .update({ status: 'ready', updated_at: new Date() }).returning('*');
    return row ? fromColumns<TestClockRow>(row) : null;
  }

  async expire(id: string): Promise<void> {
    await this.db('test_clocks').where({ id }).whereNull('deleted_at').update({ deleted_at: new Date(), updated_at: new Date() });
  }
}
