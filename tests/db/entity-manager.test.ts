import { DriverException, TableNotFoundException } from '@mikro-orm/core';
import { CatalogEntityManager } from '../../src/db/entity-manager';
import { useTestApp } from '../setup/harness';

/** Raw statements fail alike whichever connection a request's entity manager sends them on. */
describe('raw statements of a request entity manager', () => {
  const t = useTestApp();

  it.each([false, true])(
    'answer a failure as a DriverException (reading from replicas: %s)',
    async (replicas) => {
      const em = t.orm.em.fork();
      expect(em).toBeInstanceOf(CatalogEntityManager);
      if (replicas) (em as CatalogEntityManager).readFromReplicas();
      const failure = em.execute('select 1 from no_such_table');
      await expect(failure).rejects.toBeInstanceOf(TableNotFoundException);
      await expect(failure).rejects.toBeInstanceOf(DriverException);
    },
  );
});
