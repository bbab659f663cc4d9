import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const dump = process.env.KOL_TEST_PGLITE_DUMP;
  if (dump) rmSync(dump, { force: true });
}
