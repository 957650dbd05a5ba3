// Writes the live OpenAPI document (as `GET /v1/openapi.json` serves it with the default
// PUBLIC_URL) to the file named on the command line, for the linter and the breaking-change check.
import { writeFileSync } from 'node:fs';
import { buildDocument } from '../api/document/document';

const target = process.argv[2];
if (!target) throw new Error('usage: tsx scripts/openapi-document.ts <output.json>');
writeFileSync(target, `${JSON.stringify(buildDocument('http://127.0.0.1:8000'), null, 2)}\n`);
