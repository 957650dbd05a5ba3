import { loadConfig } from '../platform/config/config';
import { createDb, migrate } from './connection';
import { seedDev } from './seeds/dev-seed';
import { CipherRing } from '../platform/crypto/cipher-ring';

/** `tsx db/cli.ts migrate [seed]`: used by `npm run dev` and the deployment. */
async function main(commands: string[]): Promise<void> {
  const config = loadConfig();
  const db = createDb(config.databaseUrl, 2);
  try {
    if (commands.includes('migrate')) await migrate(db);
    if (commands.includes('seed')) {
      // Its staff password and client secrets are published in the README: a deployment anyone can reach must not have them.
      if (config.serviceEnv !== 'dev') throw new Error(`the dev seed (known passwords) runs only when SERVICE_ENV=dev, not ${config.serviceEnv}`);
      await seedDev(db, new CipherRing(config.payloadKeys));
    }
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});
