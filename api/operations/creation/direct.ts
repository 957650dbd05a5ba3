import type { Knex } from 'knex';
import { readAssignor } from '../../../domain/assignor-registration';
import { storedDocument } from '../../../domain/documents';
import { ValidationFailed } from '../../../domain/errors';
import { checkSentNfe, readSentNfe, SentNfe } from '../../../domain/nfe-key';
import { normaliseFees, normaliseReceivables, ReceivableInput } from '../../../domain/pricing';
import { receivableFingerprint, refuseRepeatedReceivables } from '../../../domain/receivable-identity';
import type { RequestTime } from '../../test-clocks/request-time';
import type { RequestBody } from '../../openapi/contract-types';
import type { Guarded } from '../double-assignment';
import type { CreationLookups } from './lookups';
import { CreationNfeXml, decodeNfeXml } from './nfe-xml';
import type { CreationReceivable } from './request';
import { createOperation } from './script';
import type { WrittenOperation } from './write';

type DirectBody = RequestBody<'createDirectOperation'>;

function refuseDuplicateExternalIds(externalIds: readonly string[]): void {
  const seen = new Set<string>();
  const errors = externalIds.flatMap((id, i) => {
    if (!seen.has(id)) { seen.add(id); return []; }
    return [{ loc: ['body', 'receivables', i, 'external_id'], msg: `external_id "${id}" appears more than once in this operation`, type: 'value_error', input: id }];
  });
  if (errors.length > 0) throw new ValidationFailed(errors);
}

/**
 * The NF-e key of each receivable checked against the assignor (`null`: unknown, as in a
 * simulation without one), and what identifies each as an invoice; the same one twice in a
 * request is refused. Shared by `POST /v1/simulate` and direct creation.
 */
export function identifyReceivables(sent: readonly SentNfe[], receivables: readonly ReceivableInput[], assignorDocument: string | null): (Guarded & { nfeKey: string | null })[] {
  const assignor = assignorDocument === null ? null : storedDocument(assignorDocument);
  const guarded = receivables.map((r, i) => {
    const nfeKey = checkSentNfe(sent[i], { externalId: r.externalId, loc: ['body', 'receivables', i] }, assignor);
    const fingerprint = receivableFingerprint({
      nfeKey, backingType: r.backingType, payerDocument: r.payerDocument, dueDate: r.dueDate, identifier: r.identifier,
      nfeNumber: sent[i].number, nfeSerie: sent[i].serie,
    });
    return { externalId: r.externalId, fingerprint, nfeKey };
  });
  refuseRepeatedReceivables(guarded.map((g) => g.fingerprint), (i) => ['body', 'receivables', i, guarded[i].nfeKey ? 'nfe_key' : 'due_date']);
  return guarded;
}

/**
 * `POST /v1/operations/direct`: every check of the body alone, before the first write; then the
 * creation script (./script.ts) with the receivables claimed there and the assignor registered there.
 */
export async function createDirectOperation(trx: Knex, originatorId: string, environment: string, body: DirectBody, at: RequestTime, lookups: CreationLookups, nfeXml: CreationNfeXml): Promise<WrittenOperation> {
  const inputs = normaliseReceivables(body.receivables, { route: 'direct' });
  const fees = normaliseFees(body.fees, { route: 'direct' }, inputs);
  const assignor = readAssignor(body);
  refuseDuplicateExternalIds(inputs.map((r) => r.externalId));
  const sent = body.receivables.map(readSentNfe);
  const guarded = identifyReceivables(sent, inputs, assignor.document);
  const receivables: CreationReceivable[] = inputs.map((input, i) => ({
    input, stockItemId: null, nfe: { ...sent[i], key: guarded[i].nfeKey }, fingerprint: guarded[i].fingerprint,
    nfeXml: decodeNfeXml(body.receivables[i].nfe_xml), nfeXmlLoc: ['body', 'receivables', i, 'nfe_xml'],
  }));
  return createOperation(trx, originatorId, environment, {
    channel: 'direct', receivables, fees, policyId: body.policy_id ?? null, productId: body.product_id ?? null,
    embeddedSignature: body.embedded_signature ?? false, assignor: { registers: assignor, bank: body.bank }, claims: 'new',
    nfes: guarded.flatMap((g, i) => (g.nfeKey ? [{ externalId: g.externalId, loc: ['body', 'receivables', i], key: g.nfeKey }] : [])),
  }, at, lookups, nfeXml);
}
