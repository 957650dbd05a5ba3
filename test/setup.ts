import { prepareDatabase, stopAll } from './support/stack';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    await prepareDatabase();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopAll();
  },
};
