// `npm run admin -- <command>`: the operator's CLI (issue 18; lib/admin/cli.ts). With the
// embedded database (no DATABASE_URL), stop the server first: PGlite serves one process
// (lib/db/data-dir-lock.ts refuses otherwise).
import { closeDb } from '@/lib/db/client';
import { runAdminCli } from '@/lib/admin/cli';

runAdminCli(process.argv.slice(2), { log: (line) => console.log(line), error: (line) => console.error(line) })
  .finally(() => closeDb())
  .then((code) => process.exit(code));
