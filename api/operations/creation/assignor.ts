import { AssignorInput, resolvePrimaryAccount } from '../../../domain/assignor-registration';
import type { AssignorRow, AssignorsRepository } from '../../../db/repositories/assignors';
import type { CreationAssignor } from './request';
import type { Knex } from 'knex';
import type { DistributionParty } from '../../../domain/sefaz/port';
import type { CipherRing } from '../../../platform/crypto/cipher-ring';
import { issuerCertificate } from '../../../db/repositories/assignor-nfe-certificates';

/** The document SEFAZ compares each NF-e's issuer with; a registered assignor's row is read, not locked. */
export async function issuerDocument(assignors: AssignorsRepository, assignor: CreationAssignor): Promise<string> {
  return 'registers' in assignor ? assignor.registers.document : (await assignors.byId(assignor.registeredId))!.document;
}

/**
 * The issuer as SEFAZ's distribution is asked by: its document, and the delegated certificate the
 * assignor stored, when it is registered already (a direct creation names it by its document).
 */
export async function issuerParty(trx: Knex, ring: CipherRing, assignors: AssignorsRepository, assignor: CreationAssignor, document: string): Promise<DistributionParty> {
  const id = 'registers' in assignor ? (await assignors.byDocument(document))?.id : assignor.registeredId;
  return { document, certificate: id ? await issuerCertificate(trx, ring, id) : null };
}

function inputOf(row: AssignorRow): AssignorInput {
  return {
    type: row.type, document: row.document, cpf: row.cpf, cnpj: row.cnpj, name: row.name,
    tradeName: row.tradeName, email: row.email, phone: row.phone, address: row.address,
  };
}

/**
 * The assignor's row, registered or locked, with its first account when it has none (contract bank
 * rules 1–5: the account applies only when the assignor has none yet); `created`: this request
 * inserted it, so a refusal takes its row away and no limit of its own is reported.
 */
export async function takeAssignor(assignors: AssignorsRepository, assignor: CreationAssignor): Promise<{ row: AssignorRow; created: boolean }> {
  if ('registers' in assignor) {
    const account = resolvePrimaryAccount(assignor.bank ?? {}, assignor.registers);
    const { row, created } = await assignors.register(assignor.registers, account);
    return { row: row.disbursementMethod ? row : await assignors.setPrimaryAccountIfMissing(row.id, account), created };
  }
  const row = (await assignors.byId(assignor.registeredId, true))!;
  if (row.disbursementMethod) return { row, created: false };
  return { row: await assignors.setPrimaryAccountIfMissing(row.id, resolvePrimaryAccount(assignor.bank, inputOf(row))), created: false };
}
