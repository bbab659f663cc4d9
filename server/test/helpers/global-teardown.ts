import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const dump = process.env.KOL_TEST_PGLITE_DUMP;
  if (dump) rmSync(dump, { force: true });
  const library = process.env.KOL_TEST_LIBRARY_DIR;
  if (library) rmSync(library, { recursive: true, force: true });
}
