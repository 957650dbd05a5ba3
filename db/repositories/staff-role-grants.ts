import type { Knex } from 'knex';
import type { StaffRole } from '../../domain/staff-roles';

export interface RoleGrantRow {
  id: string;
  userId: string;
  roles: StaffRole[];
  requestedBy: string;
  requestedAt: Date;
  status: 'pending' | 'confirmed' | 'superseded';
  confirmedBy: string | null;
  confirmedAt: Date | null;
}

const columns = {
  id: 'id', userId: 'user_id', roles: 'roles', requestedBy: 'requested_by', requestedAt: 'requested_at',
  status: 'status', confirmedBy: 'confirmed_by', confirmedAt: 'confirmed_at',
};

/** Role grants waiting for a second admin: one pending per account, a newer request supersedes it. */
export class StaffRoleGrantsRepository {
  constructor(private readonly db: Knex) {}

  async request(grant: { id: string; userId: string; roles: StaffRole[]; requestedBy: string; requestedAt: Date }): Promise<RoleGrantRow> {
    await this.db('staff_role_grants').where({ user_id: grant.userId, status: 'pending' }).update({ status: 'superseded' });
    await this.db('staff_role_grants').insert({
      id: grant.id, user_id: grant.userId, roles: grant.roles, requested_by: grant.requestedBy, requested_at: grant.requestedAt, status: 'pending',
    });
    return (await this.byId(grant.id))!;
  }

  async byId(id: string): Promise<RoleGrantRow | undefined> {
    return this.db('staff_role_grants').select(columns).where({ id }).first();
  }

  /** The grant, locked: two admins confirming it at once take turns. */
  async lock(id: string): Promise<RoleGrantRow | undefined> {
    return this.db('staff_role_grants').select(columns).where({ id }).forUpdate().first();
  }

  async pending(): Promise<RoleGrantRow[]> {
    return this.db('staff_role_grants').select(columns).where({ status: 'pending' }).orderBy('requested_at');
  }

  async confirm(id: string, by: string, at: Date): Promise<RoleGrantRow> {
    await this.db('staff_role_grants').where({ id }).update({ status: 'confirmed', confirmed_by: by, confirmed_at: at });
    return (await this.byId(id))!;
  }
}
