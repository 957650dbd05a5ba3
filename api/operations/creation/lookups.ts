import type { CreationSefaz } from './nfe-at-sefaz';
import type { CreationRegistrar } from './registrar-lookup';

/** What creation asks outside systems before it writes, each within its own budget. */
export interface CreationLookups {
  sefaz: CreationSefaz;
  registrar: CreationRegistrar;
}
