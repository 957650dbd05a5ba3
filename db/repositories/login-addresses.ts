import type { Knex } from 'knex';

/** The addresses an account signed in from, with the last success from each. */
export class LoginAddressesRepository {
  constructor(private readonly db: Knex) {}

  async remember(userId: string, address: string, at: Date): Promise<void> {
    await this.db('login_addresses').insert({ user_id: userId, address, last_success_at: at })
      .onConflict(['user_id', 'address']).merge({ last_success_at: at });
  }

  /** Whether the account of this e-mail signed in from this address since `since`. */
  async known(email: string, address: string, since: Date): Promise<boolean> {
    const row = await this.db('login_addresses').join('users', 'users.id', 'login_addresses.user_id')
      .whereRaw('lower(users.email) = lower(?)', [email]).where({ 'login_addresses.address': address })
      .where('login_addresses.last_success_at', '>=', since).first('login_addresses.user_id');
    return row !== undefined;
  }

  /** The same, by the account's id. */
  async knownById(userId: string, address: string, since: Date): Promise<boolean> {
    const row = await this.db('login_addresses').where({ user_id: userId, address }).where('last_success_at', '>=', since).first('user_id');
    return row !== undefined;
  }
}
