import { expect } from 'chai';
import { ESLint } from 'eslint';

/**
 * The floors of docs/architecture.md, as eslint.config.mjs states them: each probe lints one import
 * line as if it were written in a real file of the tree, so the project's own configuration decides.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const UPWARD: Array<[file: string, code: string, folder: string]> = [
  ['db/repositories/contracts.ts', "import type { ContractType } from '../../providers/esign-client';\nexport type X = ContractType;\n", 'providers/'],
  ['db/repositories/titles.ts', "import { createTitleActivities } from '../../activities/titles';\nexport const x = createTitleActivities;\n", 'activities/'],
  ['platform/config/config.ts', "import { createDb } from '../../db/connection';\nexport const x = createDb;\n", 'db/'],
  ['platform/logger.ts', "import { PixClient } from '../providers/pix-client';\nexport const x = PixClient;\n", 'providers/'],
  ['domain/money.ts', "import { loadConfig } from '../platform/config/config';\nexport const x = loadConfig;\n", 'platform/'],
  ['providers/pix-client.ts', "import { createDb } from '../db/connection';\nexport const x = createDb;\n", 'db/'],
  ['providers/esign-client.ts', "import { createContractActivities } from '../activities/contract';\nexport const x = createContractActivities;\n", 'activities/'],
  ['sandbox/server.ts', "import { createDb } from '../db/connection';\nexport const x = createDb;\n", 'db/'],
  ['sandbox/pix/routes.ts', "import { PixClient } from '../../providers/pix-client';\nexport const x = PixClient;\n", 'providers/'],
  ['sandbox/main.ts', "import { buildApp } from '../api/app';\nexport const x = buildApp;\n", 'api/'],
  ['db/workflow-outbox.ts', "import { ORIGINATOR_ID } from '../workflows/operation/operation-run';\nexport const x = ORIGINATOR_ID;\n", 'workflows/'],
  ['db/repositories/operations.ts', "import { buildApp } from '../../api/app';\nexport const x = buildApp;\n", 'api/'],
  ['domain/limits/check.ts', "import { OperationsRepository } from '../../db/repositories/operations';\nexport const x = OperationsRepository;\n", 'db/'],
  ['activities/titles.ts', "import { operation } from '../workflows/operation/workflow';\nexport const x = operation;\n", 'workflows/'],
  ['activities/operations.ts', "import { errorHandler } from '../api/middleware/error-handler';\nexport const x = errorHandler;\n", 'api/'],
  ['workflows/operation/phases/titles.ts', "import type { Knex } from '../../../db/connection';\nexport type X = Knex;\n", 'db/'],
  ['worker/main.ts', "import { buildApp } from '../api/app';\nexport const x = buildApp;\n", 'api/'],
  ['api/operations/routes.ts', "import { startWorker } from '../../worker/runtime';\nexport const x = startWorker;\n", 'worker/'],
  ['cli/listen.ts', "import { loadConfig } from '../platform/config/config';\nexport const x = loadConfig;\n", 'platform/'],
  ['cli/trigger.ts', "import { buildApp } from '../api/app';\nexport const x = buildApp;\n", 'api/'],
];

describe('The layer floors (eslint.config.mjs)', function () {
  this.timeout(60_000);

  for (const [file, code, folder] of UPWARD) {
    const from = file.split('/')[0];
    it(`refuses an import of ${folder} from ${file} (${from}/ must not import ${folder})`, async () => {
      const messages = await restrictedImports(file, code);
      expect(messages).to.have.length(1);
      expect(messages[0]).to.contain(`${from}/ must not import ${folder}`);
    });
  }

  it('refuses a value import of activities/ in a workflow at any depth, and allows `import type`', async () => {
    const value = await restrictedImports('workflows/operation/phases/titles.ts', "import { createTitleActivities } from '../../../activities/titles';\nexport const x = createTitleActivities;\n");
    expect(value).to.have.length(1);
    expect(value[0]).to.contain('may import only types from activities/');
    const typeOnly = await restrictedImports('workflows/operation/phases/titles.ts', "import type { createTitleActivities } from '../../../activities/titles';\nexport type X = typeof createTitleActivities;\n");
    expect(typeOnly).to.deep.equal([]);
  });

  it('lets sandbox/, a service of its own, import platform/ and domain/', async () => {
    const allowed = await restrictedImports('sandbox/server.ts',
      "import { createLogger } from '../platform/logger';\nimport { Money } from '../domain/money';\nexport const x = [createLogger, Money];\n");
    expect(allowed).to.deep.equal([]);
  });

  it('refuses I/O libraries and Node built-ins other than node:crypto in domain/, and allows the pure ones', async () => {
    for (const library of ['knex', 'pg', 'express', 'node:fs', '@temporalio/client', 'winston']) {
      const messages = await restrictedImports('domain/money.ts', `import * as lib from '${library}';\nexport const x = lib;\n`);
      expect(messages, library).to.have.length(1);
      expect(messages[0], library).to.contain('domain/ does no I/O');
    }
    const pure = await restrictedImports('domain/money.ts',
      "import Decimal from 'decimal.js';\nimport { createHmac } from 'node:crypto';\nimport { v5 } from 'uuid';\nimport { checkLimits } from './limits/check';\nexport const x = [Decimal, createHmac, v5, checkLimits];\n");
    expect(pure).to.deep.equal([]);
  });

  it('refuses Node built-ins in workflows (they are replayed deterministically)', async () => {
    const messages = await restrictedImports('workflows/operation/workflow.ts', "import { randomUUID } from 'node:crypto';\nexport const x = randomUUID;\n");
    expect(messages).to.have.length(1);
  });
});
