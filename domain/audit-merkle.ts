import { createHash } from 'node:crypto';

/** One covered row of the audit trail as a checkpoint's Merkle tree holds it: its sequence and its chain hash. */
export type CoveredRow = readonly [seq: number, hash: string];

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

/** The leaf binds the sequence too, so a row moved to another place in the trail is a different leaf. */
const leafHash = ([seq, hash]: CoveredRow) => sha256(LEAF, Buffer.from(`${seq}:${hash}`));

/** The largest power of two strictly below n (n > 1): where RFC 6962 splits a tree. */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function subtreeHash(leaves: readonly CoveredRow[]): Buffer {
  if (leaves.length === 1) return leafHash(leaves[0]);
  const k = split(leaves.length);
  return sha256(NODE, subtreeHash(leaves.slice(0, k)), subtreeHash(leaves.slice(k)));
}

/**
 * The Merkle tree hash of RFC 6962 §2.1 (Certificate Transparency) over the rows a checkpoint
 * covers, in order, hex: the checkpoint signs it, so the row hashes kept in the checkpoint log can
 * be checked against a signature, and each rewritten row named. The empty list is SHA-256 of nothing.
 */
export function merkleRoot(rows: readonly CoveredRow[]): string {
  return (rows.length === 0 ? sha256() : subtreeHash(rows)).toString('hex');
}
