#!/usr/bin/env node
// `npm start`: builds when there is no build of the current sources, then serves in production
// mode on PORT. Migrations run in the server itself at start (instrumentation.ts).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
process.env.NEXT_TELEMETRY_DISABLED = '1';
const next = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

/** The newest modification time among the files a build depends on. */
function newestSource() {
  const watched = ['app', 'components', 'lib', 'messages', 'public', 'proxy.ts', 'next.config.mjs', 'package-lock.json', 'instrumentation.ts', 'scripts/patch-postgres.mjs'];
  let newest = 0;
  const visit = (entry) => {
    if (!existsSync(entry)) return;
    const stat = statSync(entry);
    if (stat.isDirectory()) for (const child of readdirSync(entry)) visit(path.join(entry, child));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  watched.forEach(visit);
  return newest;
}

// The build bundles postgres.js: its fix must be in node_modules first (also run by postinstall).
const patched = spawnSync(process.execPath, [path.join(root, 'scripts', 'patch-postgres.mjs')], { stdio: 'inherit' });
if (patched.status !== 0) process.exit(patched.status ?? 1);

const stamp = path.join(root, '.next', 'enclave-build-stamp');
const built = existsSync(path.join(root, '.next', 'BUILD_ID')) && existsSync(stamp);
// Taken before building: a file changed during the build makes the next start build again.
const sources = newestSource();
const stale = !built || Number(readFileSync(stamp, 'utf8')) < sources;
if (stale || process.env.FORCE_BUILD === '1') {
  console.log('Building Enclave…');
  const result = spawnSync(process.execPath, [next, 'build'], { stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stamp, String(sources));
  // A new build (new PGlite, new migrations) gets a new template.
  rmSync(path.join(root, '.next', 'pglite-template'), { recursive: true, force: true });
}
// Only the embedded database needs it; made once per build (scripts/pglite-template.mjs).
if (!process.env.DATABASE_URL && !existsSync(path.join(root, '.next', 'pglite-template', 'PG_VERSION'))) {
  const template = spawnSync(process.execPath, [path.join(root, 'scripts', 'pglite-template.mjs')], { stdio: 'inherit' });
  if (template.status !== 0) console.warn('No embedded database template: a first start will take a few seconds longer.');
}

const port = process.env.PORT ?? '3000';

// A local trial (no APP_URL, or one on localhost) without SMTP_URL keeps the dev mailbox: mail goes
// to this log. A server with a public APP_URL must be given SMTP_URL, or MAIL_LOG=1 on purpose.
const local = !process.env.APP_URL || /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\/?$/.test(process.env.APP_URL);
if (!process.env.SMTP_URL && !process.env.MAIL_LOG && local) {
  console.log('No SMTP_URL: mail is written to this log (the dev mailbox). Set SMTP_URL before serving anyone else.');
  process.env.MAIL_LOG = '1';
}
// scripts/server.mjs serves the build: Next.js's handler, told the address of each TCP peer.
const server = spawn(process.execPath, [path.join(root, 'scripts', 'server.mjs')], {
  stdio: 'inherit',
  env: { ...process.env, PORT: port, NODE_ENV: 'production' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
