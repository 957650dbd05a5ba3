// Imported first by an entry script: the script's own code runs only on the project's Node.js 24
// (the imports after this one are loaded meanwhile, which does no work).
import { ensureSupportedNode } from './supported-node.mjs';

await ensureSupportedNode();
