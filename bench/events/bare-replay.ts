/**
 * The yardstick of bench/events: bare Express 5 answering, from memory, the exact bytes a route of
 * the api answered (the file BENCH_REPLAY_FILE holds them), with no auth, validation or database.
 */
import { readFileSync } from 'node:fs';
import express from 'express';

const body = readFileSync(process.env.BENCH_REPLAY_FILE!, 'utf8');
const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.get('/replay', (_req, res) => { res.type('application/json').send(body); });
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`bare replay listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
