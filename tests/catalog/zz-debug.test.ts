import { buildManga } from '../factories';
import { rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { ReadEntry } from '../../src/lists/read-entry.entity';
const t = useTestApp();
it('debug', async () => {
  await buildManga(t.orm, { slug: 'popular' });
  const logger = t.orm.config.getLogger();
  const orig = logger.log.bind(logger);
  const seen: string[] = [];
  (logger as unknown as { log: (...a: unknown[]) => void }).log = (...a: unknown[]) => { seen.push(JSON.stringify(a).slice(0, 150)); (orig as (...a: unknown[]) => void)(...a); };
  const res = await rest(t.app, 'GET', '/manga/popular');
  const rows = await t.orm.em.fork().createQueryBuilder(ReadEntry).select(['manga', 'status']).execute('all', false);
  console.error(res.status, seen.slice(0, 3), rows, process.env.FORCE_COLOR, process.env.NO_COLOR);
});
