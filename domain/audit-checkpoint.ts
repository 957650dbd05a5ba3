import { createVerify, KeyObject, sign } from 'node:crypto';

/** The chain's head at a moment: its last row's sequence and hash. */
export interface ChainHead {
  seq: number;
  hash: string;
  /** When the head was read and signed (ISO 8601). */
  time: string;
}

/**
 * The rows since the previous checkpoint: the first sequence it covers and the RFC 6962 Merkle root
 * over those rows (domain/audit-merkle.ts). Absent from checkpoints signed before it.
 */
export interface CoveredRange {
  fromSeq: number;
  root: string;
}

/** A signed head: `jws` is a compact JWS (RS256, the signing key's `kid`) whose payload is the head. */
export interface SignedCheckpoint extends ChainHead, Partial<CoveredRange> {
  id: string;
  kid: string;
  jws: string;
}

const TYPE = 'audit-checkpoint+jws';
const b64 = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * Signs a head and the Merkle root of the rows it covers as a compact JWS, so anyone holding the
 * JWKS can check it with a standard library: header `{alg: RS256, kid, typ}`, payload
 * `{id, seq, hash, time, from_seq, root}`.
 */
export function signCheckpoint(head: ChainHead & CoveredRange & { id: string }, key: { kid: string; privateKey: KeyObject }): SignedCheckpoint {
  const payload = { id: head.id, seq: head.seq, hash: head.hash, time: head.time, from_seq: head.fromSeq, root: head.root };
  const input = `${b64(JSON.stringify({ alg: 'RS256', kid: key.kid, typ: TYPE }))}.${b64(JSON.stringify(payload))}`;
  const signature = sign('RSA-SHA256', Buffer.from(input), key.privateKey);
  return { ...head, kid: key.kid, jws: `${input}.${b64(signature)}` };
}

export type CheckpointReading = { valid: true; checkpoint: SignedCheckpoint } | { valid: false; reason: string };

/** Opens a checkpoint's JWS with the key its `kid` names: the head it signed, or why it is not to be trusted. */
export function readCheckpoint(jws: string, keyOf: (kid: string) => KeyObject | undefined): CheckpointReading {
  const parts = jws.split('.');
  if (parts.length !== 3) return { valid: false, reason: 'not a compact JWS' };
  let header: { alg?: string; kid?: string; typ?: string };
  let payload: { id: string; seq: number; hash: string; time: string; from_seq?: number; root?: string };
  try {
    header = JSON.parse(Buffer.from(parts[0], 'base64url').toString());
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString());
  } catch {
    return { valid: false, reason: 'header or payload is not JSON' };
  }
  if (header.alg !== 'RS256' || header.typ !== TYPE || !header.kid) return { valid: false, reason: `unexpected header ${JSON.stringify(header)}` };
  const key = keyOf(header.kid);
  if (!key) return { valid: false, reason: `signed by kid ${header.kid}, which is not in the key set` };
  const verifier = createVerify('RSA-SHA256');
  verifier.update(`${parts[0]}.${parts[1]}`);
  if (!verifier.verify(key, Buffer.from(parts[2], 'base64url'))) return { valid: false, reason: `signature does not verify with kid ${header.kid}` };
  const { from_seq: fromSeq, root, ...head } = payload;
  const range = fromSeq === undefined || root === undefined ? {} : { fromSeq, root };
  return { valid: true, checkpoint: { ...head, ...range, kid: header.kid, jws } };
}
