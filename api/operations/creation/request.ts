import type { AssignorInput, BankInput } from '../../../domain/assignor-registration';
import type { OperationFees, ReceivableInput } from '../../../domain/pricing';
import type { NfeToCheck } from '../../../domain/sefaz/creation-refusal';
import type { ReceivableSource } from '../../../db/repositories/operation-rows';

/** One receivable of a creation: what pricing reads, and where it comes from (its stock item, its NF-e data, its claim). */
export interface CreationReceivable extends ReceivableSource {
  input: ReceivableInput;
  /** The NF-e's XML (the procNFe) as sent, decoded by the adapter; null when none was sent. */
  nfeXml: string | null;
  /** Where the receivable's `nfe_xml` is in the body, or would be: what a refusal of its XML names. */
  nfeXmlLoc: (string | number)[];
}

/**
 * The assignor: registered by the request (direct; the account applies only when it has none), or
 * one already registered whose row the creation locks (stock; `bank` only gives it a first account).
 */
export type CreationAssignor =
  | { registers: AssignorInput; bank: BankInput | undefined }
  | { registeredId: string; bank: BankInput };

/**
 * One creation, normalised by its route's adapter (direct creation, stock anticipation): nothing
 * of the raw body goes further than the adapter, and every check of the body alone is done.
 */
export interface CreationRequest {
  channel: 'direct' | 'stock';
  receivables: CreationReceivable[];
  fees: OperationFees | null;
  policyId: string | null;
  productId: string | null;
  embeddedSignature: boolean;
  assignor: CreationAssignor;
  /** `new`: the receivables are claimed here (the first lock); `held`: the adapter's stock items already hold their claims. */
  claims: 'new' | 'held';
  /** The NF-e keys SEFAZ is asked about, in the request's order, each with its place in the body. */
  nfes: NfeToCheck[];
}
