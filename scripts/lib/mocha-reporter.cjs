// mocha's spec reporter that also leaves the run's tally in MOCHA_TALLY_FILE (when set), so the
// script that ran mocha can print it as the very last line of the log, after its own shutdown
// output: CI's log reader takes the closing "N passed, N failed" line, not mocha's "N passing".
const { writeFileSync } = require('node:fs');
const { reporters, Runner } = require('mocha');

class SpecWithTally extends reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = this.stats;
      if (process.env.MOCHA_TALLY_FILE) writeFileSync(process.env.MOCHA_TALLY_FILE, JSON.stringify({ passes, failures, pending }));
    });
  }
}

module.exports = SpecWithTally;
