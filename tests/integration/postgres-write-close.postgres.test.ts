import { readFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { BOUNDED_WAITS } from '@/lib/db/client';
import { databaseUnavailableCode } from '@/lib/db/unavailable';

// Issue 20, "Database faults": postgres.js 3.4.9 loses connections to a race between a write and
// a close (server/patch-postgres.mjs). A backend that dies inside a transaction — as every one
// does when PostgreSQL stops under load — made the transaction's automatic ROLLBACK throw from a
// timer (the process died), or left the connection unable to send anything again (each reconnect
// a CONNECT_TIMEOUT). Real PostgreSQL; the backend ends itself with pg_terminate_backend.

it('a connection killed inside a transaction: a catchable 503-class error, then the pool answers at once', async () => {
  const sql = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {}, ...BOUNDED_WAITS });
  try {
    await sql`select 1`;
    for (let round = 0; round < 5; round++) {
      const killed = await sql
        .begin(async (tx) => {
          await tx`select pg_terminate_backend(pg_backend_pid())`;
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(databaseUnavailableCode(killed)).toEqual(expect.any(String));
      // At most one more refusal from the dead socket, each fast; then answers again.
      const started = Date.now();
      let answered = false;
      for (let attempt = 0; attempt < 3 && !answered; attempt++) {
        answered = await sql`select 1 as one`.then(
          ([row]) => row?.one === 1,
          (error: unknown) => (expect(databaseUnavailableCode(error)).toBe('CONNECTION_CLOSED'), false),
        );
      }
      expect(answered).toBe(true);
      // Well under connect_timeout (5 s): no reconnect waited for a startup that was never sent.
      expect(Date.now() - started).toBeLessThan(BOUNDED_WAITS.connect_timeout * 1000);
    }
  } finally {
    await sql.end({ timeout: 1 });
  }
});

it('every copy of postgres.js that Node, Jest and the Next.js build load carries the fix', () => {
  for (const copy of ['src', 'cjs/src', 'cf/src']) {
    const source = readFileSync(path.join(process.cwd(), 'node_modules', 'postgres', copy, 'connection.js'), 'utf8');
    expect([copy, source.includes('/* enclave: write-close race fixed */')]).toEqual([copy, true]);
  }
});
