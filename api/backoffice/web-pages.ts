import path from 'node:path';
import express, { Router } from 'express';
import helmet from 'helmet';

const WEB_ROOT = path.join(__dirname, '..', 'web');
const SWAGGER_UI_ROOT = path.dirname(require.resolve('swagger-ui-dist/package.json'));
/** uqr's self-contained ES module: the console draws each PIX charge's QR code with it. */
const UQR_MODULE = path.join(path.dirname(require.resolve('uqr')), 'index.mjs');

/**
 * Pages served beside the API: the backoffice console and the integrator docs. Everything they
 * load comes from this service, so the policy allows only 'self': no inline script or style, no
 * framing, forms posting nowhere else.
 */
const strictCsp = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
});

function pages(folder: string): express.RequestHandler {
  // No caching while the console and the docs change with each release of the api.
  return express.static(path.join(WEB_ROOT, folder), { index: 'index.html', redirect: true, maxAge: 0 });
}

/** The Swagger UI files the docs page loads, and nothing else of that package. */
function swaggerUi(): Router {
  const router = Router();
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
    router.get(`/docs/vendor/${file}`, (_req, res) => res.sendFile(path.join(SWAGGER_UI_ROOT, file)));
  }
  return router;
}

export function webPageRoutes(): Router {
  const router = Router();
  router.use(['/backoffice', '/docs'], strictCsp);
  router.get(['/backoffice', '/docs'], (req, res, next) => (req.path.endsWith('/') ? next() : res.redirect(301, `${req.path}/`)));
  router.use('/backoffice', pages('backoffice'));
  router.use(swaggerUi());
  router.get('/backoffice/vendor/uqr.mjs', (_req, res) => res.type('text/javascript').sendFile(UQR_MODULE));
  router.use('/docs', pages('docs'));
  return router;
}
