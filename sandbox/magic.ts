/**
 * Magic values make every provider failure reachable from the public API, the way card-test
 * numbers do elsewhere (DESIGN.md §11). A value is the local part of an e-mail the provider sees
 * (the assignor's, given at document creation or in a PIX recipient, or a signer's), ignoring any
 * `+tag`. A suffix limits how often it applies: `-once` the first time only, `-x<N>` the first N
 * times, counted per full address, so a re-dispatch can succeed and `+tag`s give fresh counters.
 */
export const MAGIC = {
  esignFailCreate: 'esign-fail-create',
  esignFailSigner: 'esign-fail-signer',
  esignFailUpdate: 'esign-fail-update',
  esignFailTemplate: 'esign-fail-template',
  esignUnavailable: 'esign-unavailable',
  pixReject: 'pix-reject',
  pixSlow: 'pix-slow',
  pixShort: 'pix-short',
} as const;

export type Magic = (typeof MAGIC)[keyof typeof MAGIC];

/** Served at the sandbox root so an integrator can discover them without the README. */
export const MAGIC_EFFECTS: Record<Magic, string> = {
  'esign-fail-create': 'creating the document is refused (422)',
  'esign-fail-signer': 'adding signers is refused (422)',
  'esign-fail-update': 'updating a signer is refused (422)',
  'esign-fail-template': 'the template inventory check is refused (422)',
  'esign-unavailable': 'reading the document and its signers answers 503',
  'pix-reject': 'the payment is accepted, then settles REJECTED with settled_amount 0.00',
  'pix-slow': 'the payment settles after the slow settlement delay instead of the normal one',
  'pix-short': 'the payment settles SETTLED with settled_amount one cent less than the amount ordered',
};

const KNOWN = new Set<string>(Object.values(MAGIC));
const SHAPE = /^(.+?)(?:-(once)|-x(\d+))?$/;

interface Trigger {
  magic: Magic;
  times: number;
}

function triggerOf(address: string): Trigger | null {
  const local = address.split('@')[0].split('+')[0];
  const [, base, once, times] = SHAPE.exec(local) ?? [];
  if (!base || !KNOWN.has(base)) return null;
  return { magic: base as Magic, times: once ? 1 : times ? Number(times) : Infinity };
}

/** Remembers how often each limited magic value has applied, per sandbox instance. */
export class FaultBook {
  private readonly applied = new Map<string, number>();

  /** Whether one of these e-mails asks for `magic` now; counts the use against its limit. */
  applies(magic: Magic, emails: readonly (string | null | undefined)[]): boolean {
    for (const email of emails) {
      const address = email?.trim().toLowerCase();
      if (!address) continue;
      const trigger = triggerOf(address);
      if (trigger?.magic !== magic) continue;
      const key = `${magic} ${address}`;
      const used = this.applied.get(key) ?? 0;
      if (used >= trigger.times) continue;
      this.applied.set(key, used + 1);
      return true;
    }
    return false;
  }

  snapshot(): [string, number][] {
    return [...this.applied.entries()];
  }

  restore(counters: [string, number][]): void {
    for (const [key, used] of counters) this.applied.set(key, used);
  }
}
