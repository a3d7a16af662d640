import type { ServerResponse } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import { checkReplicas } from '../db/replicas';
import { type Handler, pathOf, sendJson } from '../http';

/**
 * `GET /healthz` (the process answers) and `GET /readyz` (ready while the primary
 * answers; replicas are reported, and one that is down is skipped). Mounted before the
 * rate limit: the health checks are never limited.
 */
export function healthChecks(orm: MikroORM): Handler {
  // Synchronous for every other request: the whole pipeline runs on in it.
  return (req, res, next) => {
    const path = pathOf(req);
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (path !== '/readyz') return next();
    return answerReadiness(orm, res);
  };
}

async function answerReadiness(orm: MikroORM, res: ServerResponse): Promise<void> {
  const [primary, replicas] = await Promise.all([
    orm.em
      .getConnection()
      .execute('select 1')
      .then(() => 'ok' as const)
      .catch(() => 'unavailable' as const),
    checkReplicas(orm),
  ]);
  sendJson(res, primary === 'ok' ? 200 : 503, {
    status: primary,
    ...(replicas.length > 0 && { replicas }),
  });
}
