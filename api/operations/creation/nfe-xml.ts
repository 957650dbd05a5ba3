import type { Knex } from 'knex';
import type { RuleViolation } from '../../../domain/errors';
import { NfeXmlPolicy, nfeXmlRefusal, ProvenReceivable, refuseMissingNfeXml, refuseUnprovenNfe } from '../../../domain/nfe-xml/proof';
import { NfeXmlRepository } from '../../../db/repositories/nfe-xml';
import type { NewTitleRow } from '../../../db/repositories/operation-writes';
import type { CipherRing } from '../../../platform/crypto/cipher-ring';
import type { TrustedRoots } from '../../../platform/crypto/certificate-chain';
import { NfeSignatureInvalid, NfeXmlMalformed, openSignedNfe } from '../../../platform/xml/nfe-proc';
import type { CreationReceivable } from './request';

/** What proving an NF-e by its XML needs: the roots its signer must chain to, and the ring its XML is sealed with at rest. */
export interface CreationNfeXml {
  roots: TrustedRoots;
  ring: CipherRing;
}

/** An `nfe_xml` as sent (base64, the document checked its alphabet) as the XML text it carries. */
export const decodeNfeXml = (sent: string | null | undefined): string | null => (sent ? Buffer.from(sent, 'base64').toString('utf8') : null);

/** One receivable's XML checked: signature, the signer's chain, then the content's rules (domain/nfe-xml/proof.ts). */
function refuseUnproven(roots: TrustedRoots, xml: string, receivable: ProvenReceivable, assignorDocument: string): RuleViolation | null {
  try {
    const signed = openSignedNfe(xml);
    const untrusted = roots.untrustedBecause(signed.signer, signed.intermediates, signed.issuedAt);
    if (untrusted) return nfeXmlRefusal('nfe_xml_untrusted_certificate', receivable, `the NF-e's signer is not trusted: ${untrusted}`);
    return refuseUnprovenNfe(signed.facts, receivable, assignorDocument);
  } catch (err) {
    if (err instanceof NfeXmlMalformed) return nfeXmlRefusal('nfe_xml_malformed', receivable, `nfe_xml is not a readable procNFe: ${err.message}`);
    if (err instanceof NfeSignatureInvalid) return nfeXmlRefusal('nfe_xml_signature_invalid', receivable, `the NF-e's signature is invalid: ${err.message}`);
    throw err;
  }
}

const provenOf = (r: CreationReceivable): ProvenReceivable => ({
  externalId: r.input.externalId, loc: r.nfeXmlLoc, nfeKey: r.nfe.key, payerDocument: r.input.payerDocument, dueDate: r.input.dueDate, faceValue: r.input.grossFutureValue,
});

/**
 * Creation's proof of each NF-e by its XML, before anything is written: the product's policy
 * (`required`: an NF-e key needs its XML), then each XML sent. The first refusal, in the
 * request's order, refuses the request (422).
 */
export function refuseUnprovenNfes(proof: CreationNfeXml, receivables: readonly CreationReceivable[], policy: NfeXmlPolicy, assignorDocument: string): void {
  for (const receivable of receivables) {
    const proven = provenOf(receivable);
    const refusal = receivable.nfeXml === null
      ? refuseMissingNfeXml(policy, proven)
      : refuseUnproven(proof.roots, receivable.nfeXml, proven, assignorDocument);
    if (refusal) throw refusal;
  }
}

/** Each proven XML sealed beside its title, in the creation's transaction (titles are in the receivables' order). */
export async function storeNfeXmls(trx: Knex, proof: CreationNfeXml, receivables: readonly CreationReceivable[], titles: readonly NewTitleRow[]): Promise<void> {
  await new NfeXmlRepository(trx).insert(receivables.flatMap((r, i) => (r.nfeXml === null ? [] : [{
    titleId: titles[i].id, originatorId: titles[i].originatorId, sealedXml: proof.ring.sealText(r.nfeXml),
  }])));
}
