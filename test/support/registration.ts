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

/** Issues an NF-e's installments at the sandbox escriturador as its seller would (before anyone looks it up). */
export async function issueDuplicatas(nfeKey: string, installments: { n_dup: string; vencimento: string; valor: string }[]): Promise<void> {
  const res = await fetch(`${(await sharedSandbox()).escrituradorUrl}/sandbox/duplicatas`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${SANDBOX_REGISTRAR_API_KEY}` },
    body: JSON.stringify({ chave_nfe: nfeKey, parcelas: installments }),
  });
  if (res.status !== 201) throw new Error(`issuing duplicatas answered ${res.status}: ${await res.text()}`);
}
