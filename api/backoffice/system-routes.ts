import { Router } from 'express';
import { handle, ok } from '../http/handle';
import { systemFigures } from './system-figures';

/** The console's System page reads the api's own metrics here. */
export function systemRoutes(startedAt: Date): Router {
  const router = Router();
  router.get('/v1/backoffice/system', handle(async () => ok(await systemFigures(startedAt))));
  return router;
}
