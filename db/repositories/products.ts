import { v7 as uuidv7 } from 'uuid';
import { Dec, Money } from '../../domain/money';
import type { NfeXmlPolicy } from '../../domain/nfe-xml/proof';
import { DEFAULT_NFE_BEYOND_CONSULT_AGE, type NfeBeyondConsultAgePolicy } from '../../domain/sefaz/consult-age';
import { NO_PAYER_CONFIRMATION, PayerConfirmation, PayerConfirmationPolicy } from '../../domain/sefaz/payer-confirmation';
import { paged } from './pagination';
import { TenantScopedRepository } from './tenant-scoped';

export interface Product {
  id: string;
  name: string;
  description: string | null;
  minMonthlyRatePct: Dec;
  maxMonthlyRatePct: Dec;
  minTermDays: number;
  maxTermDays: number;
  minValueBrl: Money;
  maxValueBrl: Money;
  active: boolean;
  /** Whether each receivable with an NF-e key must carry its XML (domain/nfe-xml/proof.ts). */
  nfeXml: NfeXmlPolicy;
  /** Whether the PIX waits for the payer to confirm each NF-e, and for how long. */
  payerConfirmation: PayerConfirmation;
  /** What an NF-e beyond SEFAZ's consult age (cStat 526) gets (domain/sefaz/consult-age.ts). */
  nfeBeyondConsultAge: NfeBeyondConsultAgePolicy;
}

/** The policies a new product may leave to their defaults. */
type OptionalPolicy = 'nfeXml' | 'payerConfirmation' | 'nfeBeyondConsultAge';

type Row = Record<string, string | number | boolean | null>;

function toProduct(row: Row): Product {
  return {
    id: String(row.id),
    name: String(row.name),
    description: row.description === null ? null : String(row.description),
    minMonthlyRatePct: new Dec(String(row.min_monthly_rate_pct)),
    maxMonthlyRatePct: new Dec(String(row.max_monthly_rate_pct)),
    minTermDays: Number(row.min_term_days),
    maxTermDays: Number(row.max_term_days),
    minValueBrl: Money.of(String(row.min_value_brl)),
    maxValueBrl: Money.of(String(row.max_value_brl)),
    active: Boolean(row.active),
    nfeXml: row.nfe_xml as NfeXmlPolicy,
    payerConfirmation: { policy: String(row.payer_confirmation) as PayerConfirmationPolicy, deadlineDays: Number(row.payer_confirmation_deadline_days) },
    nfeBeyondConsultAge: row.nfe_beyond_consult_age as NfeBeyondConsultAgePolicy,
  };
}

/** The originator's product catalogue; only active products are offered. */
export class ProductsRepository extends TenantScopedRepository {
  async list(limit: number, offset: number): Promise<{ items: Product[]; total: number }> {
    const offered = () => this.scoped('products').where({ active: true });
    const { items, total } = await paged<Row>(offered, (query) => query.orderBy([{ column: 'name' }, { column: 'id' }]), limit, offset);
    return { items: items.map(toProduct), total };
  }

  async byId(id: string): Promise<Product | null> {
    const row = await this.scoped('products').where({ id }).first();
    return row ? toProduct(row) : null;
  }

  /** Inserts a product; with a fixed `id` a second run changes nothing (the dev seed). */
  async create(product: Omit<Product, 'id' | OptionalPolicy> & Partial<Pick<Product, OptionalPolicy>>, id: string = uuidv7()): Promise<Product> {
    const { policy, deadlineDays } = product.payerConfirmation ?? NO_PAYER_CONFIRMATION;
    await this.insertOwned('products', {
      id,
      name: product.name,
      description: product.description,
      min_monthly_rate_pct: product.minMonthlyRatePct.toString(),
      max_monthly_rate_pct: product.maxMonthlyRatePct.toString(),
      min_term_days: product.minTermDays,
      max_term_days: product.maxTermDays,
      min_value_brl: product.minValueBrl.toString(),
      max_value_brl: product.maxValueBrl.toString(),
      active: product.active,
      nfe_xml: product.nfeXml ?? 'optional',
      payer_confirmation: policy,
      payer_confirmation_deadline_days: deadlineDays,
      nfe_beyond_consult_age: product.nfeBeyondConsultAge ?? DEFAULT_NFE_BEYOND_CONSULT_AGE,
    }).onConflict('id').ignore();
    return (await this.byId(id))!;
  }
}
