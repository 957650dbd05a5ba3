import { loadConfig } from '../../platform/config/config';
import { createDb } from '../../db/connection';
import { CipherRing } from '../../platform/crypto/cipher-ring';
import { rotateSigningKey } from './signing-key-store';

/**
 * `npm run keys:rotate [-- --retire-previous]`: rotates the RS256 signing key with the deployment's
 * own configuration (docs/operations.md "Rotating the token signing key").
 */
async function main(args: string[]): Promise<void> {
  const config = loadConfig();
  const db = createDb(config.databaseUrl, 2);
  try {
    const rotation = await rotateSigningKey(db, new CipherRing(config.payloadKeys), {
      tokenTtlSeconds: config.jwt.tokenTtlSeconds, retirePrevious: args.includes('--retire-previous'),
    });
    process.stdout.write(`${JSON.stringify({ active: rotation.activated, verify_only: rotation.verifyOnly, verify_until: rotation.verifyUntil, retired: rotation.retired })}\n`);
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});
