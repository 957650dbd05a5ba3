/**
 * The yardstick of bench/http: bare Express 5 parsing a JSON body and echoing it, nothing else
 * (no validation, no auth, no database). Prints its address when it listens.
 */
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.use(express.json({ limit: '1mb' }));
app.post('/echo', (req, res) => { res.json(req.body); });
app.get('/echo', (_req, res) => { res.json({ ok: true }); });
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`bare express listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
