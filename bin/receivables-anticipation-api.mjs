#!/usr/bin/env node
// The integrators' CLI (cli/main.ts), run from its TypeScript source through tsx, a dependency of this repository.
import { tsImport } from 'tsx/esm/api';

await tsImport('../cli/main.ts', import.meta.url);
