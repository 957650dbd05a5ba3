import express, { Response, Router } from 'express';
import type { EsignBook, SigningOutcome } from './documents';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const OUTCOMES: Record<SigningOutcome, { status: number; message: string }> = {
  signed: { status: 200, message: 'Thank you: your signature was recorded.' },
  already_signed: { status: 200, message: 'You have already signed this document.' },
  canceled: { status: 410, message: 'This document was cancelled and can no longer be signed.' },
};

/**
 * The URL carries the signer's credential, so the page must not be cached nor leak it through
 * the Referer header; framing stays allowed because embedded mode presents it inside the
 * integrator's own page.
 */
function page(res: Response, status: number, title: string, body: string): void {
  res.status(status).set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).type('html').send(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head>` +
      `<body><h1>${escape(title)}</h1>${body}<p><small>Sandbox e-signature: no legal effect.</small></p></body></html>`,
  );
}

const notValid = (res: Response) => page(res, 404, 'Link not valid', '<p>This signing link is not valid.</p>');

/** The page each signer reaches through `sign_url`: one button, whose form POST signs. */
export function signingPage(book: EsignBook): Router {
  const router = Router();

  router.get('/sign/:token', (req, res) => {
    const found = book.signing(req.params.token);
    if (!found) return notValid(res);
    const { document, signer } = found;
    const what = document.type === 'FULL_CONTRACT' ? 'receivables assignment contract' : 'assignment addendum';
    if (signer.status === 'signed' || document.status === 'canceled') {
      const outcome = OUTCOMES[document.status === 'canceled' ? 'canceled' : 'already_signed'];
      return page(res, outcome.status, `Sign the ${what}`, `<p>${outcome.message}</p>`);
    }
    const auth = signer.auth === 'advanced' ? 'advanced authentication (simulated)' : 'on-screen signature';
    page(res, 200, `Sign the ${what}`,
      `<p>Signer: ${escape(signer.name)} &lt;${escape(signer.email)}&gt;, by ${auth}.</p>` +
        `<form method="post" action="${escape(req.originalUrl)}"><button type="submit" name="decision" value="sign">Sign</button></form>`);
  });

  router.post('/sign/:token', express.urlencoded({ extended: false }), (req, res) => {
    if (req.body?.decision !== 'sign') return page(res, 422, 'Nothing signed', '<p>Use the Sign button to sign.</p>');
    const outcome = book.sign(req.params.token);
    if (!outcome) return notValid(res);
    page(res, OUTCOMES[outcome].status, 'Signature', `<p>${OUTCOMES[outcome].message}</p>`);
  });

  return router;
}
