import { STATE_CODES } from '../../domain/sefaz/states';
import type { ClientTls } from './tls';

/**
 * SEFAZ, where every NF-e is checked at its source. `authorizers`: the consult's URL for each
 * state code (SVRS and SVAN serve several states, and the table has changed before, so it is
 * configuration); `distributionUrl`: the national environment's `NFeDistribuicaoDFe`;
 * `environment`: `tpAmb`, 1 production, 2 homologation. `perKeyPerHour`: SEFAZ answers 656 (consumo
 * indevido) to a key asked too often, so past this many requests in an hour a key gets its last
 * answer again; `throttleMs`: how long a key rests after a 656 all the same.
 */
export interface SefazSettings {
  environment: '1' | '2';
  authorizers: Record<string, string>;
  distributionUrl: string;
  tls: ClientTls | null;
  timeoutMs: number;
  attempts: number;
  /** What creation waits for SEFAZ, all keys at once, one attempt: past it the operation is created and its workflow checks. */
  creationBudgetMs: number;
  backoffMs: number;
  perKeyPerHour: number;
  throttleMs: number;
  /** The sandbox's controls (`/v1/sandbox/nfe/...` forwards there); unused in prod. */
  sandboxUrl: string;
}

export class SefazSettingError extends Error {}

/**
 * `cUF[,cUF...]=url` groups separated by `;` or new lines, every state once:
 * `35=https://nfe.fazenda.sp.gov.br/ws/nfeconsultaprotocolo4.asmx; 12,27,32=https://...`.
 */
export function parseAuthorizers(raw: string, name: string): Record<string, string> {
  const table: Record<string, string> = {};
  for (const group of raw.split(/[;\n]/).map((part) => part.trim()).filter(Boolean)) {
    const at = group.indexOf('=');
    const url = group.slice(at + 1).trim();
    if (at < 0 || !URL.canParse(url)) throw new SefazSettingError(`${name}: "${group}" is not cUF[,cUF...]=url`);
    for (const code of group.slice(0, at).split(',').map((part) => part.trim())) {
      if (!(STATE_CODES as readonly string[]).includes(code)) throw new SefazSettingError(`${name}: "${code}" is not a state's IBGE code`);
      if (table[code]) throw new SefazSettingError(`${name}: state ${code} is given twice`);
      table[code] = url;
    }
  }
  const missing = STATE_CODES.filter((code) => !table[code]);
  if (missing.length) throw new SefazSettingError(`${name}: no authorizer for state ${missing.join(', ')} (a key from there could not be checked)`);
  return table;
}

/** Outside production every state's consult is the sandbox's. */
export const sandboxAuthorizers = (sandboxUrl: string): string => `${STATE_CODES.join(',')}=${sandboxUrl}/NFeConsultaProtocolo4`;
