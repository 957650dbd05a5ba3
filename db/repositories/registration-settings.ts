import type { Knex } from 'knex';
import { registrationSettings, RegistrationSettings } from '../../domain/escriturador/negotiation';

/** Each originator's registration settings; read through the domain's validation, so a row edited by hand cannot slip a bad value through. */
export class RegistrationSettingsRepository {
  constructor(private readonly db: Knex) {}

  async ofOriginator(originatorId: string): Promise<RegistrationSettings | null> {
    const row = await this.db('originator_registration_settings').where({ originator_id: originatorId }).first();
    if (!row) return null;
    return registrationSettings({ registrar: row.registrar, holderDocument: row.holder_document, negotiationType: row.negotiation_type });
  }

  /**
   * The escriturador each of `originatorIds` registers at, as its row says (not validated, so the stuck view
   * still names the wait when a row edited by hand is what makes the registration fail); absent: none.
   */
  async registrarsOf(originatorIds: readonly string[]): Promise<Map<string, string>> {
    const rows: { originator_id: string; registrar: string }[] = await this.db('originator_registration_settings').whereIn('originator_id', [...originatorIds]).select('originator_id', 'registrar');
    return new Map(rows.map((row) => [row.originator_id, row.registrar]));
  }

  async save(originatorId: string, settings: RegistrationSettings, now: Date): Promise<void> {
    await this.db('originator_registration_settings')
      .insert({ originator_id: originatorId, registrar: settings.registrar, holder_document: settings.holderDocument, negotiation_type: settings.negotiationType, updated_at: now })
      .onConflict('originator_id').merge();
  }
}
