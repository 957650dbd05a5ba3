import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EsignSnapshot } from './esign/documents';
import type { PixSnapshot } from './pix/payments';
import type { CollectionSnapshot } from './api-pix/charges';
import type { StaffMail } from './mail/mailbox';
import type { SefazSnapshot } from './sefaz/nfe-book';
import type { EscrituradorSnapshot } from './escriturador/book';

export interface SandboxState {
  esign: EsignSnapshot;
  pix: PixSnapshot;
  /** Absent in a file written before the collection PSP existed. */
  collection?: CollectionSnapshot;
  /** Absent in a file written before the staff mailbox existed. */
  mail?: StaffMail[];
  /** Absent in a file written before the escriturador existed. */
  escriturador?: EscrituradorSnapshot;
  faults: [string, number][];
  /** Absent in a file written before the SEFAZ service existed. */
  sefaz?: SefazSnapshot;
}

/**
 * The providers' state in one JSON file, written before an answer leaves (a real provider does not
 * forget a document it has acknowledged), through a rename so a crash mid-write keeps the last
 * whole copy.
 */
export class StateFile {
  private written = '';

  constructor(private readonly file: string) {}

  load(): SandboxState | null {
    try {
      this.written = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return JSON.parse(this.written) as SandboxState;
  }

  save(state: SandboxState): void {
    const text = JSON.stringify(state);
    if (text === this.written) return;
    mkdirSync(path.dirname(this.file), { recursive: true });
    const partial = `${this.file}.partial`;
    writeFileSync(partial, text);
    renameSync(partial, this.file);
    this.written = text;
  }
}
