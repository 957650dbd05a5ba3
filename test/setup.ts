import { prepareDatabase, stopAll } from './support/stack';
import { cloneFileDatabase, dropFileDatabase } from './support/file-database';
import { recordFileDuration } from './support/file-durations';

let fileStarted = 0;

// Serial runs call these once; parallel runs (TEST_JOBS > 1) once per file, in the file's worker process.
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    fileStarted = performance.now();
    await cloneFileDatabase();
    await prepareDatabase();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopAll();
    await dropFileDatabase();
    recordFileDuration(this.test?.parent?.suites[0]?.file, performance.now() - fileStarted);
  },
};
