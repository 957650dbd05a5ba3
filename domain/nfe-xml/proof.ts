import { stripDocument } from '../documents';
import { RuleViolation } from '../errors';
import { Money } from '../money';
import { checkedAtSefaz } from '../sefaz/creation-refusal';

/**
 * What a procNFe says once its issuer's signature has been checked: every field but the
 * protocol's is read from the signed `infNFe`, never from the document around it.
 */
export interface NfeFacts {
  /** From `infNFe/@Id` (`NFe` + the 44 digits). */
  key: string;
  /** `ide/mod`: 55 is the NF-e; 65 the NFC-e. */
  model: string;
  /** `emit/CNPJ` or `emit/CPF`. */
  issuerDocument: string | null;
  /** `dest/CNPJ`, `dest/CPF` (or `dest/idEstrangeiro`: no document of ours). */
  recipientDocument: string | null;
  /** `cobr/dup`: the duplicatas the NF-e bills, each due on `dVenc` for `vDup`. */
  installments: { dueDate: string; value: string }[];
  /** The signature's `DigestValue` of `infNFe`. */
  signedDigest: string;
  /** `protNFe/infProt`: the key and digest SEFAZ authorized (null when the XML carries no protocol). */
  protocol: { key: string; digest: string } | null;
}

/** The receivable an NF-e XML is sent for, as creation knows it. */
export interface ProvenReceivable {
  externalId: string;
  /** Where its `nfe_xml` is in the body, or would be. */
  loc: (string | number)[];
  nfeKey: string | null;
  payerDocument: string;
  dueDate: string;
  /** The face value the payer owes on the due date: the gross, or the NFV when no gross was sent. */
  faceValue: Money;
}

export const NFE_XML_CODES = [
  'nfe_xml_required', 'nfe_xml_malformed', 'nfe_xml_signature_invalid', 'nfe_xml_untrusted_certificate', 'nfe_xml_key_mismatch',
  'nfe_xml_model_not_accepted', 'nfe_xml_digest_mismatch', 'nfe_xml_party_mismatch', 'nfe_xml_installment_mismatch',
] as const;
export type NfeXmlCode = (typeof NFE_XML_CODES)[number];

/** A 422 naming the receivable (`loc`: its `nfe_xml`) and what of the XML failed. */
export function nfeXmlRefusal(code: NfeXmlCode, receivable: Pick<ProvenReceivable, 'externalId' | 'loc'>, why: string, extra: Record<string, unknown> = {}): RuleViolation {
  return new RuleViolation({
    code, message: `Receivable ${receivable.externalId}: ${why}`, external_id: receivable.externalId, loc: receivable.loc, ...extra,
  });
}

const sameDocument = (a: string | null, b: string): boolean => a !== null && stripDocument(a) === stripDocument(b);

/**
 * The rules a signed, trusted NF-e must meet to back its receivable, first failure first: it is
 * the receivable's NF-e (key, model 55), the one SEFAZ authorized (its protocol's digest is the
 * signed one), between the assignor and the receivable's payer, and it bills the receivable's
 * due date and face value. Null: proven.
 */
export function refuseUnprovenNfe(facts: NfeFacts, receivable: ProvenReceivable, assignorDocument: string): RuleViolation | null {
  const refuse = (code: NfeXmlCode, why: string, extra: Record<string, unknown> = {}) => nfeXmlRefusal(code, receivable, why, extra);
  if (receivable.nfeKey === null) return refuse('nfe_xml_key_mismatch', 'nfe_xml is sent without the nfe_key it proves', { nfe_key: null, xml_key: facts.key });
  if (facts.key !== receivable.nfeKey || (facts.protocol !== null && facts.protocol.key !== receivable.nfeKey)) {
    return refuse('nfe_xml_key_mismatch', `the XML is NF-e ${facts.key}, not ${receivable.nfeKey}`, { nfe_key: receivable.nfeKey, xml_key: facts.key });
  }
  if (facts.model !== '55') return refuse('nfe_xml_model_not_accepted', `the XML is of model ${facts.model}; only the NF-e (model 55) is proven`, { model: facts.model });
  if (facts.protocol === null) return refuse('nfe_xml_digest_mismatch', 'the XML carries no authorization protocol (protNFe): send the procNFe');
  if (facts.protocol.digest !== facts.signedDigest) {
    return refuse('nfe_xml_digest_mismatch', 'protNFe/infProt/digVal is not the digest of the signed NF-e: what SEFAZ authorized was another content');
  }
  if (!sameDocument(facts.issuerDocument, assignorDocument)) return refuse('nfe_xml_party_mismatch', 'the NF-e\'s issuer (emit) is not the assignor', { party: 'issuer' });
  if (!sameDocument(facts.recipientDocument, receivable.payerDocument)) {
    return refuse('nfe_xml_party_mismatch', 'the NF-e\'s recipient (dest) is not the receivable\'s payer', { party: 'recipient' });
  }
  const billed = facts.installments.some((dup) => dup.dueDate === receivable.dueDate && Money.of(dup.value).equals(receivable.faceValue));
  if (!billed) {
    return refuse('nfe_xml_installment_mismatch', `no installment (cobr/dup) of the NF-e is due on ${receivable.dueDate} for ${receivable.faceValue.toString()}`, {
      due_date: receivable.dueDate, face_value: receivable.faceValue.toString(),
    });
  }
  return null;
}

/** Product policy `nfe_xml`: `required` refuses a receivable with an NF-e (model 55) key and no XML. */
export type NfeXmlPolicy = 'optional' | 'required';
export const NFE_XML_POLICIES: readonly NfeXmlPolicy[] = ['optional', 'required'];

/** A receivable sent without its NF-e's XML, under the product's policy; an NFC-e (model 65) is out of the proof's scope, so none is asked for. */
export function refuseMissingNfeXml(policy: NfeXmlPolicy, receivable: Pick<ProvenReceivable, 'externalId' | 'loc' | 'nfeKey'>): RuleViolation | null {
  if (policy !== 'required' || receivable.nfeKey === null || !checkedAtSefaz(receivable.nfeKey)) return null;
  return nfeXmlRefusal('nfe_xml_required', receivable, `the product requires the NF-e's XML (nfe_xml) of every receivable with an NF-e (model 55) key`);
}
