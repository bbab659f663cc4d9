import type { EmbeddedDatabase } from '../../src/db/embedded';

export default async function globalTeardown() {
  await (globalThis as { kolTestDatabase?: EmbeddedDatabase }).kolTestDatabase?.stop();
}
