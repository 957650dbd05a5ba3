import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Frozen OpenAPI documents of earlier releases (the contract's "Versioning": snapshots stay
 * published unchanged). Each file in `releases/` is served as it is at `/v1/openapi/<version>.json`,
 * and CI checks the live document against every one of them for breaking changes.
 */
const DIRECTORY = path.join(__dirname, 'releases');

export const releaseVersions = (): string[] =>
  readdirSync(DIRECTORY).filter((file) => file.endsWith('.json')).map((file) => file.slice(0, -'.json'.length)).sort();

export const releasePath = (version: string): string => `/v1/openapi/${version}.json`;

export const readRelease = (version: string): Buffer => readFileSync(path.join(DIRECTORY, `${version}.json`));
