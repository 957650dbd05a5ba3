import type { Knex } from 'knex';

/** An NF-e XML sealed at rest (platform/crypto/cipher-ring.ts `sealText`), beside the title it proved. */
export interface NewTitleNfeXml {
  titleId: string;
  originatorId: string;
  sealedXml: string;
}

/** The NF-e XMLs that proved titles at creation, written in the creation's transaction. */
export class NfeXmlRepository {
  constructor(private readonly trx: Knex) {}

  async insert(rows: readonly NewTitleNfeXml[]): Promise<void> {
    if (rows.length === 0) return;
    await this.trx('title_nfe_xml').insert(rows.map((row) => ({ title_id: row.titleId, originator_id: row.originatorId, sealed_xml: row.sealedXml })));
  }

}
