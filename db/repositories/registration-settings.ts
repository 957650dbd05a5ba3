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

  async save(originatorId: string, settings: RegistrationSettings, now: Date): Promise<void> {
    await this.db('originator_registration_settings')
      .insert({ originator_id: originatorId, registrar: settings.registrar, holder_document: settings.holderDocument, negotiation_type: settings.negotiationType, updated_at: now })
      .onConflict('originator_id').merge();
  }
}
