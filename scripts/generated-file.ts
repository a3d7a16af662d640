import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * A committed artifact generated from the code (schema.graphql, openapi.json): writes it,
 * or with `--check` on the command line fails when the committed file differs.
 */
export function writeOrCheck(name: string, text: string, emitCommand: string): void {
  const file = resolve(__dirname, '..', name);
  if (!process.argv.includes('--check')) {
    writeFileSync(file, text);
    console.log(`Wrote ${file}`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // A missing file is drift too.
  }
  if (committed !== text) {
    console.error(`${name} is out of date: run \`${emitCommand}\` and commit the result.`);
    process.exit(1);
  }
  console.log(`${name} matches the code.`);
}

/** Runs a script's main function, exiting non-zero on failure. */
export function run(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
