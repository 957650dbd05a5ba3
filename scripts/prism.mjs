#!/usr/bin/env node
// `npm run prism`. Only Node built-ins are imported statically, so that a fresh clone installs its
// dependencies first (as `npm run fuzz` does).
import { ensureDependencies } from './lib/ensure-dependencies.mjs';

await ensureDependencies();
await import('./lib/prism.mjs');
