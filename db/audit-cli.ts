import { loadConfig } from '../platform/config/config';
import { createDb } from './connection';
import { verifyAuditChain } from './audit-verify';
import { AuditEventsRepository } from './repositories/audit-events';

/** `npm run audit:verify`: exit 0 when the chain holds, 1 naming the first broken link. */
async function main(): Promise<number> {
  const db = createDb(loadConfig().databaseUrl, 1);
  try {
    const verdict = await verifyAuditChain(new AuditEventsRepository(db));
    if (verdict.intact) {
      process.stdout.write(`audit chain intact: ${verdict.rows} rows\n`);
      return 0;
    }
    process.stdout.write(`audit chain broken at seq ${verdict.seq} (id ${verdict.id}): ${verdict.reason}\n`);
    return 1;
  } finally {
    await db.destroy();
  }
}

main().then((code) => process.exit(code), (err: Error) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(2);
});
