import type { ConsultOutcome, DistributionOutcome } from './status-codes';
import type { PayerEventSeen } from './payer-events';

/** Which adapter answered: the national web services, or the sandbox's simulation of them. */
export type SefazAdapter = 'sefaz' | 'sandbox';

/** An `NFeConsultaProtocolo4` answer, read. */
export interface NfeStatusAnswer {
  key: string;
  cStat: string;
  reason: string;
  outcome: ConsultOutcome;
  /** The authorization's `dhRecbto` and `digVal`, when the NF-e was authorized (even if later cancelled). */
  authorizedAt: string | null;
  digestValue: string | null;
  /** The event types the consult carried (cancellation 110111, correction letter 110110, EPEC...). */
  eventTypes: string[];
  answeredAt: string;
  /** True when this came from the per-key cache rather than a request now. */
  cached: boolean;
}

/** An `NFeDistribuicaoDFe` `consChNFe` answer, read: the payer's manifestações found for the key. */
export interface PayerEventsAnswer {
  key: string;
  cStat: string;
  reason: string;
  outcome: DistributionOutcome;
  events: PayerEventSeen[];
  answeredAt: string;
  cached: boolean;
}

/** The NF-e's party whose certificate asks for the distribution: the issuer (our assignor). */
export interface DistributionParty {
  /** CNPJ or CPF without punctuation. */
  document: string;
  /** The party's delegated A1 certificate; null presents the platform's own (what the sandbox accepts). */
  certificate: { pfx: Uint8Array; passphrase: string } | null;
}

/** The SEFAZ port: the one way the rest of the service asks about an NF-e at its source. */
export interface SefazPort {
  readonly adapter: SefazAdapter;
  consultStatus(key: string): Promise<NfeStatusAnswer>;
  payerEvents(key: string, party: DistributionParty): Promise<PayerEventsAnswer>;
}
