import cluster from 'node:cluster';
import type { Config } from './config';

/*
 * What this process is with `WEB_CONCURRENCY` > 1 (src/cluster.ts): asked by the server at
 * start and by the HTTP layer's rate limit, whose budget the workers share.
 */

/** This process supervises workers (`WEB_CONCURRENCY` > 1) rather than serving (src/cluster.ts). */
export const isClusterSupervisor = (config: Config): boolean =>
  config.webConcurrency > 1 && cluster.isPrimary;

/** This process is a worker of the supervisor (`WEB_CONCURRENCY` > 1). */
export const isClusterWorker = (config: Config): boolean => config.webConcurrency > 1 && cluster.isWorker;

/** The worker that prints the service's addresses once it listens (the others answer the same). */
export const isFirstWorker = (): boolean => cluster.worker?.id === 1;
