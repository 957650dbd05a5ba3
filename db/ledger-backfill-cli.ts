import { loadConfig } from '../platform/config/config';
import { createDb } from './connection';
import { backfillLedger } from './ledger-backfill';

/** `npm run ledger:backfill`: posts what existed before the ledger; a second run records nothing. */
async function main(): Promise<void> {
  const db = createDb(loadConfig().databaseUrl, 1);
  try {
    process.stdout.write(`ledger backfill: ${await backfillLedger(db)} transactions recorded\n`);
  } finally {
    await db.destroy();
  }
}

main().then(() => process.exit(0), (err: Error) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
