import { loadSandboxConfig } from './config';
import { startSandbox } from './server';
import { tracingSettings } from '../platform/config/config';
import { startTracing } from '../platform/telemetry/tracing';

/** Entry point of the sandbox providers process (`npm run dev`, docker-compose). */
if (require.main === module) {
  // The provider side of the traces: its spans join the worker's calls by their traceparent. A
  // signing page's path carries the signer's token, which must not reach a tracing backend.
  startTracing(tracingSettings(process.env), 'receivables-sandbox', { untraced: /^\/(?:metrics|esign\/sign\/)/ });
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
