import { loadSandboxConfig } from './config';
import { startSandbox } from './server';

/** Entry point of the sandbox providers process (`npm run dev`, docker-compose). */
if (require.main === module) {
  startSandbox(loadSandboxConfig()).then((sandbox) => {
    process.stdout.write(`sandbox providers on ${sandbox.url} (e-sign ${sandbox.esignUrl}, PIX ${sandbox.pixUrl})\n`);
    const stop = () => { sandbox.close().finally(() => process.exit(0)); };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }).catch((err) => {
    process.stderr.write(`sandbox failed to start: ${(err as Error).stack}\n`);
    process.exit(1);
  });
}
