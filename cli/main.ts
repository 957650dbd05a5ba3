import { parseArgs } from 'node:util';
import path from 'node:path';
import { listen } from './listen';
import { tailOperation } from './tail';
import { NOT_TRIGGERED, TRIGGERS, trigger } from './trigger';
import { ApiRefusal, PublicApi } from './public-api';

const USAGE = `Usage: npx receivables-anticipation-api <command> [options]

  listen --forward-to http://localhost:PORT/path [--events kind,...]
      Forwards the originator's events, as they happen, to a local URL, signed as real deliveries are
      (Standard Webhooks headers, with the secret it prints). One line per event with the local answer.
  trigger <event kind>
      Causes that event in the sandbox and prints the ids of what it created. Kinds:
      ${Object.keys(TRIGGERS).join(', ')}
  events tail --operation <id> [--no-follow]
      An operation's whole story (its titles, their PIX charges, its payables), then each event as it happens.

Credentials (the integrator's client credentials; flags win over the environment):
  --api-url        RECEIVABLES_API_URL        (default http://127.0.0.1:8000)
  --client-id      RECEIVABLES_CLIENT_ID
  --client-secret  RECEIVABLES_CLIENT_SECRET
Other options: --state-file (listen's secret and cursor; default .receivables-cli/listen-<client id>.json),
  --poll-ms (default 1000).`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'api-url': { type: 'string' }, 'client-id': { type: 'string' }, 'client-secret': { type: 'string' },
    'forward-to': { type: 'string' }, events: { type: 'string' }, operation: { type: 'string' }, 'no-follow': { type: 'boolean' },
    'state-file': { type: 'string' }, 'poll-ms': { type: 'string' }, help: { type: 'boolean', short: 'h' },
  },
});

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

const required = (value: string | undefined, name: string): string => value ?? fail(`${name} is required`);

async function main(): Promise<void> {
  const [command, ...rest] = positionals;
  if (values.help || !command) fail('A command is required');
  const clientId = required(values['client-id'] ?? process.env.RECEIVABLES_CLIENT_ID, '--client-id (or RECEIVABLES_CLIENT_ID)');
  const api = new PublicApi({
    apiUrl: (values['api-url'] ?? process.env.RECEIVABLES_API_URL ?? 'http://127.0.0.1:8000').replace(/\/$/, ''),
    clientId, clientSecret: required(values['client-secret'] ?? process.env.RECEIVABLES_CLIENT_SECRET, '--client-secret (or RECEIVABLES_CLIENT_SECRET)'),
  });
  const print = (line: string) => process.stdout.write(`${line}\n`);
  const stopped = new Promise<void>((resolve) => { process.once('SIGINT', resolve); process.once('SIGTERM', resolve); });
  const pollMs = Number(values['poll-ms'] ?? 1000);
  if (command === 'listen') {
    await listen(api, {
      forwardTo: required(values['forward-to'], '--forward-to'), events: values.events ? values.events.split(',') : [], clientId, pollMs, print, stopped,
      stateFile: values['state-file'] ?? path.join('.receivables-cli', `listen-${clientId}.json`),
    });
  } else if (command === 'trigger') {
    const kind = rest[0] ?? fail('trigger needs an event kind');
    if (!(kind in TRIGGERS)) fail(`trigger cannot cause ${kind}${kind in NOT_TRIGGERED ? `: ${NOT_TRIGGERED[kind]}` : ''}`);
    await trigger(api, kind, print);
  } else if (command === 'events' && rest[0] === 'tail') {
    await tailOperation(api, { operationId: required(values.operation, '--operation'), follow: !values['no-follow'], pollMs, print, stopped });
  } else {
    fail(`Unknown command ${positionals.join(' ')}`);
  }
}

main().then(() => process.exit(0), (err: unknown) => {
  process.stderr.write(`${err instanceof ApiRefusal || err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
