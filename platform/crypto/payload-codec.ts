import type { DataConverter, Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { CipherKey, CipherRing } from './cipher-ring';

const ENCODING = 'binary/encrypted';
const KEY_ID = 'encryption-key-id';

/**
 * Every payload (workflow and activity arguments and results, updates, queries, memo) leaves the
 * process sealed: the whole original payload, metadata included, is serialised and encrypted, so
 * Temporal's server, its history and Temporal Web without the codec endpoint see only ciphertext.
 * A payload that is not ours (no `binary/encrypted` encoding) passes through on decode.
 */
export class EncryptionCodec implements PayloadCodec {
  constructor(private readonly ring: CipherRing) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const { keyId, blob } = this.ring.seal(temporal.api.common.v1.Payload.encode(payload).finish());
      return { metadata: { encoding: Buffer.from(ENCODING), [KEY_ID]: Buffer.from(keyId) }, data: blob };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const metadata = payload.metadata ?? {};
      if (!metadata.encoding || Buffer.from(metadata.encoding).toString() !== ENCODING) return payload;
      const keyId = metadata[KEY_ID] ? Buffer.from(metadata[KEY_ID]).toString() : '';
      const plain = this.ring.open({ keyId, blob: Buffer.from(payload.data ?? new Uint8Array()) });
      return temporal.api.common.v1.Payload.decode(plain);
    });
  }
}

/** The data converter of every Temporal client and worker of ours (and of the tests'). */
export function encryptingDataConverter(keys: CipherKey[]): DataConverter {
  return { payloadCodecs: [new EncryptionCodec(new CipherRing(keys))], failureConverterPath: require.resolve('./failure-converter') };
}
