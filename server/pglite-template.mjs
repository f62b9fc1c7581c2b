#!/usr/bin/env node
// Builds `.next/pglite-template`: an embedded database already initialised and migrated. A first
// start on an empty DATA_DIR copies it (tens of milliseconds) instead of running PostgreSQL's
// initdb inside PGlite (about 4 s on a 2-core machine). `npm start` runs this after a build;
// a template older than the migrations is fine: the server applies the ones it lacks.
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const target = path.join(root, '.next', 'pglite-template');
const work = mkdtempSync(path.join(root, '.next', 'pglite-template-'));

const client = await PGlite.create(work);
await migrate(drizzle(client), { migrationsFolder: path.join(root, 'drizzle') });
await client.query('insert into configuration (id) values (1) on conflict do nothing');
await client.close();
// Swapped in whole, so a server starting meanwhile never copies half a template.
rmSync(target, { recursive: true, force: true });
renameSync(work, target);
console.log('Embedded database template ready.');
