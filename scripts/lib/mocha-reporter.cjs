// mocha's spec reporter, closing on the plain tally line "mocha: N passed, N failed, N skipped" that
// CI's log reader recognises in any language: it does not read mocha's own "N passing" summary.
const { reporters, Runner } = require('mocha');

class SpecWithTally extends reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = this.stats;
      process.stdout.write(`\nmocha: ${passes} passed, ${failures} failed, ${pending} skipped\n`);
    });
  }
}

module.exports = SpecWithTally;
