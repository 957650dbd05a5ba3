import { RegistrationSettingsRepository } from '../../db/repositories/registration-settings';
import { registrationSettings } from '../../domain/escriturador/negotiation';
import { SANDBOX_REGISTRAR_API_KEY } from '../../platform/config/config';
import { HttpEscriturador } from '../../providers/escriturador/client';
import { cnpj } from './documents';
import { sharedSandbox, testDb } from './stack';

/** Makes the originator register its titles' acquisitions at the sandbox escriturador; answers the holder's CNPJ. */
export async function registerAtSandbox(originatorId: string): Promise<string> {
  const holderDocument = cnpj();
  await new RegistrationSettingsRepository(testDb()).save(originatorId, registrationSettings({ registrar: 'sandbox', holderDocument }), new Date());
  return holderDocument;
}

/** The sandbox escriturador as its production adapter reaches it, to read what it recorded. */
export async function sandboxEscriturador(): Promise<HttpEscriturador> {
  return new HttpEscriturador({ url: (await sharedSandbox()).escrituradorUrl, apiKey: SANDBOX_REGISTRAR_API_KEY, timeoutMs: 2_000 });
}
