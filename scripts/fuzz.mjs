#!/usr/bin/env node
// `npm run fuzz`. Only Node built-ins are imported statically, so that a fresh clone installs its
// dependencies first (as `npm run dev` does).
import { ensureDependencies } from './lib/ensure-dependencies.mjs';

await ensureDependencies();
await import('./lib/fuzz.mjs');
