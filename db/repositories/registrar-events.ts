import type { Knex } from 'knex';

/** What an escriturador event did: the title it touched, if any, and how. */
export interface HandledRegistrarEvent {
  eventId: string;
  type: string;
  duplicataId: string;
  titleId: string | null;
  outcome: string;
}

/** `registrar_events`: each escriturador webhook event handled once, by its event id. */
export class RegistrarEventsRepository {
  constructor(private readonly db: Knex) {}

  async outcomeOf(eventId: string): Promise<string | null> {
    const row = await this.db('registrar_events').where({ event_id: eventId }).first('outcome');
    return row?.outcome ?? null;
  }

  /** A concurrent delivery of the same event that got here first keeps its row. */
  async handled(event: HandledRegistrarEvent, at: Date): Promise<void> {
    await this.db('registrar_events').insert({
      event_id: event.eventId, type: event.type, duplicata_id: event.duplicataId, title_id: event.titleId, outcome: event.outcome, received_at: at,
    }).onConflict('event_id').ignore();
  }
}
