import type { ErrorRequestHandler, RequestHandler, Router } from 'express';

type Step = RequestHandler | ErrorRequestHandler;

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';

/**
 * Runs middleware in order as one Express layer, with Express's rules: an error skips to the next
 * error handler (four parameters), which the error-free path skips; a throw or a rejected promise
 * is an error. Express's router pays for a path match, parameter processing and prefix trimming at
 * each of its layers; every request of the api crosses about twenty of them before its handler,
 * none mounted on a path, so they run here as plain calls.
 */
export function pipeline(steps: Step[]): RequestHandler {
  const errorHandler = steps.map((step) => step.length === 4);
  return (req, res, done) => {
    let index = 0;
    const next = (err?: unknown): void => {
      const failed = err !== undefined && err !== null && err !== false;
      while (index < steps.length) {
        const at = index++;
        if (errorHandler[at] !== failed) continue;
        try {
          const result: unknown = failed
            ? (steps[at] as ErrorRequestHandler)(err, req, res, next)
            : (steps[at] as RequestHandler)(req, res, next);
          if (isThenable(result)) result.then(undefined, (rejection: unknown) => next(rejection ?? new Error('Rejected promise')));
        } catch (thrown) {
          next(thrown);
        }
        return;
      }
      done(failed ? err : undefined);
    };
    next();
  };
}

type Layer = { route?: { path: unknown; methods: Record<string, boolean> } };

/**
 * The routers in order, as the app's chain would run them, except that a documented operation goes
 * straight to the router serving it (found from the routers' own routes: the Express path
 * `/v1/operations/:id` is the template `/v1/operations/{id}`) instead of through every router
 * before it, none of which serves it. If that router passes the request on, the routers after it
 * follow, as in the chain.
 */
export function routerDispatch(routers: Router[]): RequestHandler {
  const first = new Map<string, number>();
  routers.forEach((router, at) => {
    for (const { route } of (router as unknown as { stack: Layer[] }).stack) {
      if (!route) continue;
      for (const path of [route.path].flat()) {
        if (typeof path !== 'string') continue;
        const template = path.replace(/:(\w+)/g, '{$1}');
        for (const [method, on] of Object.entries(route.methods)) {
          const key = `${method.toUpperCase()} ${template}`;
          if (on && !first.has(key)) first.set(key, at);
        }
      }
    }
  });
  const all = pipeline(routers);
  const after = routers.map((_, at) => pipeline(routers.slice(at + 1)));
  return (req, res, next) => {
    const route = req.ctx.route;
    const at = route && first.get(`${route.method} ${route.pathTemplate}`);
    if (at === undefined) return all(req, res, next);
    routers[at](req, res, (err?: unknown) => (err ? next(err) : after[at](req, res, next)));
  };
}
