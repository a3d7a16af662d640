import { ormOptions } from './src/db/orm-options';
import { entities } from './src/orm';

/** Configuration for MikroORM tooling; the service builds the same options (src/orm.ts). */
export default ormOptions({
  clientUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/catalog',
  entities,
});
