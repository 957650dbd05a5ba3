import { expect } from 'chai';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { CoveredRow, merkleRoot } from '../../domain/audit-merkle';
import { readCheckpoint, signCheckpoint } from '../../domain/audit-checkpoint';

const h = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const leaf = ([seq, hash]: CoveredRow) => h(Buffer.from([0]), Buffer.from(`${seq}:${hash}`));
const node = (left: Buffer, right: Buffer) => h(Buffer.from([1]), left, right);
const rows: CoveredRow[] = [11, 12, 14, 15, 16].map((seq) => [seq, createHash('sha256').update(String(seq)).digest('hex')]);

describe('audit checkpoints: the Merkle root of the rows covered (RFC 6962)', () => {
  it('is the leaf hash for one row, and splits at the largest power of two below the count', () => {
    expect(merkleRoot(rows.slice(0, 1))).to.equal(leaf(rows[0]).toString('hex'));
    expect(merkleRoot(rows.slice(0, 3))).to.equal(node(node(leaf(rows[0]), leaf(rows[1])), leaf(rows[2])).toString('hex'));
    const fourth = node(node(leaf(rows[0]), leaf(rows[1])), node(leaf(rows[2]), leaf(rows[3])));
    expect(merkleRoot(rows)).to.equal(node(fourth, leaf(rows[4])).toString('hex'));
    expect(merkleRoot([])).to.equal(h().toString('hex'));
  });

  it('changes when any row\'s hash or sequence changes', () => {
    const root = merkleRoot(rows);
    rows.forEach(([seq, hash], i) => {
      const rehashed = rows.map((row, j): CoveredRow => (j === i ? [seq, `${hash.slice(0, -1)}0`] : row));
      const moved = rows.map((row, j): CoveredRow => (j === i ? [seq + 100, hash] : row));
      expect(merkleRoot(rehashed), `hash of ${seq}`).to.not.equal(root);
      expect(merkleRoot(moved), `seq of ${seq}`).to.not.equal(root);
    });
  });

  it('signs the range and root with the head, and still reads a checkpoint signed before them', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const head = { id: 'c1', seq: 16, hash: rows[4][1], time: '2026-11-28T10:00:00.000Z' };
    const signed = signCheckpoint({ ...head, fromSeq: 11, root: merkleRoot(rows) }, { kid: 'k1', privateKey });
    expect(readCheckpoint(signed.jws, () => publicKey)).to.deep.equal({ valid: true, checkpoint: { ...head, fromSeq: 11, root: merkleRoot(rows), kid: 'k1', jws: signed.jws } });

    const b64 = (value: string | Buffer) => Buffer.from(value).toString('base64url');
    const input = `${b64(JSON.stringify({ alg: 'RS256', kid: 'k1', typ: 'audit-checkpoint+jws' }))}.${b64(JSON.stringify(head))}`;
    const earlier = `${input}.${b64(sign('RSA-SHA256', Buffer.from(input), privateKey))}`;
    expect(readCheckpoint(earlier, () => publicKey)).to.deep.equal({ valid: true, checkpoint: { ...head, kid: 'k1', jws: earlier } });
  });
});
