// Jest's global setup of the integration tests on PGlite: one embedded database initialised and
// migrated, dumped to a file that every test file's in-memory database starts from
// (MEMORY_DB_TEMPLATE, lib/db/client.ts). initdb inside PGlite takes seconds on this machine;
// paid once per run instead of once per file. The dump is kept between runs, named after the
// migrations and PGlite's version, so a new migration makes a new one.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const migrationsFolder = path.join(root, 'drizzle');

function templateName() {
  const hash = createHash('sha256');
  hash.update(JSON.parse(readFileSync(path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')).version);
  for (const file of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const full = path.join(migrationsFolder, file);
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(full));
  }
  return path.join(os.tmpdir(), `enclave-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/**
 * Each dump is about 40 MB: a new one (new migrations) removes the others untouched for a day.
 * Younger ones stay, since another checkout's run may be reading its own at this moment.
 */
function removeStaleTemplates(kept) {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(os.tmpdir())) {
    const other = path.join(os.tmpdir(), name);
    if (!name.startsWith('enclave-pglite-template-') || other === kept) continue;
    try {
      if (statSync(other).mtimeMs < dayAgo) rmSync(other, { force: true });
    } catch {
      // Gone meanwhile (another run removed it): nothing to do.
    }
  }
}

export default async function pgliteMemoryTemplate() {
  const file = templateName();
  if (!existsSync(file)) {
    const client = await PGlite.create('memory://');
    await migrate(drizzle(client), { migrationsFolder });
    const dump = await client.dumpDataDir('none');
    await client.close();
    // Renamed into place whole, so a run started meanwhile never reads half a dump.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    removeStaleTemplates(file);
  } else {
    // In use: not stale for another checkout's clean-up.
    utimesSync(file, new Date(), new Date());
  }
  process.env.MEMORY_DB_TEMPLATE = file;
}
