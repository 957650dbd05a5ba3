/**
 * The BR Code (Banco Central's EMV® QRCPS merchant-presented payload) of a dynamic PIX charge:
 * what the payer pastes ("copia e cola") or scans. Dynamic means the amount and due date live at
 * the PSP's location URL (tag 26/25), so the code itself carries no amount.
 */

export const PIX_GUI = 'br.gov.bcb.pix';

/** CRC16-CCITT as the BR Code manual asks: polynomial 0x1021, initial value 0xFFFF, no reflection. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function field(id: string, value: string): string {
  const length = Buffer.byteLength(value, 'utf8');
  if (length > 99) throw new Error(`EMV field ${id} is longer than 99 bytes`);
  return `${id}${String(length).padStart(2, '0')}${value}`;
}

/** EMV text (tags 59 and 60) allows no accents and has a maximum length. */
function plain(text: string, max: number): string {
  return text.normalize('NFD').replace(/[^\x20-\x7e]/g, '').toUpperCase().slice(0, max).trim() || 'N/A';
}

export interface DynamicCharge {
  /** The PSP's payload location, without its scheme (`pix.example.com/qr/v2/cobv/…`). */
  location: string;
  merchantName: string;
  merchantCity: string;
}

export function dynamicBrCode({ location, merchantName, merchantCity }: DynamicCharge): string {
  const body = [
    field('00', '01'),
    field('01', '12'),
    field('26', field('00', PIX_GUI) + field('25', location)),
    field('52', '0000'),
    field('53', '986'),
    field('58', 'BR'),
    field('59', plain(merchantName, 25)),
    field('60', plain(merchantCity, 15)),
    field('62', field('05', '***')),
  ].join('');
  return `${body}6304${crc16(`${body}6304`)}`;
}

export type EmvFields = Map<string, string>;

/** Splits an EMV payload into its top-level tags; throws on a length that runs past the end. */
export function parseEmv(payload: string): EmvFields {
  const fields: EmvFields = new Map();
  let at = 0;
  while (at < payload.length) {
    const id = payload.slice(at, at + 2);
    const length = Number(payload.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(payload.slice(at + 2, at + 4)) || at + 4 + length > payload.length) {
      throw new Error(`malformed EMV field at position ${at}`);
    }
    fields.set(id, payload.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

/** True when the payload ends in tag 63 holding the CRC16 of everything before its value. */
export function crcValid(payload: string): boolean {
  const crcAt = payload.length - 8;
  return crcAt > 0 && payload.slice(crcAt, crcAt + 4) === '6304' && crc16(payload.slice(0, crcAt + 4)) === payload.slice(crcAt + 4);
}
