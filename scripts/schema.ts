import 'reflect-metadata';
import { buildAppSchema, printAppSchema } from '../src/schema';
import { run, writeOrCheck } from './generated-file';

/** Writes schema.graphql from the code; with --check, fails on drift. */
run(async () => {
  writeOrCheck('schema.graphql', printAppSchema(await buildAppSchema()), 'npm run schema:emit');
});
