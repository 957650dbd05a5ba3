import { prepareDatabase, stopAll } from './support/stack';
import { cloneFileDatabase, dropFileDatabase } from './support/file-database';

// Serial runs call these once; parallel runs (TEST_JOBS > 1) once per file, in the file's worker process.
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    await cloneFileDatabase();
    await prepareDatabase();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopAll();
    await dropFileDatabase();
  },
};
