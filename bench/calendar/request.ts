// Part of `npm run bench:calendar`: where one GET /api/events/calendar spends its time, in
// process (the route handler called as Next.js calls it, and the server layer's fast path, without HTTP), for the account
// SEED_EMAIL that bench/calendar/seed.ts filled. Mean wall and CPU time over 300 calls after 30
// warm-ups. Prints a table.
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { GET as calendar } from '@/app/api/events/calendar/route';
import { GET as health } from '@/app/api/health/route';
import { userForSession } from '@/lib/auth/session';
import { sealSession, unsealSession } from '@/lib/auth/session-cookie';
import { closeDb, getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { calendarVersion } from '@/lib/events/calendar-version';
import { calendarFastAnswer } from '@/lib/events/calendar-fast-path';

async function main() {
  const db = await getDb();
  const email = process.env.SEED_EMAIL ?? 'demo@enclave.local';
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (!user) throw new Error(`no account ${email}`);
  const cookie = await sealSession({ userId: user.id, version: user.sessionVersion, role: user.role, sid: crypto.randomUUID() });
  const now = new Date();
  const start = Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000);
  const end = Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000);
  const context = { params: Promise.resolve({}) } as never;
  const get = (form: string, headers: Record<string, string> = {}) =>
    calendar(
      new NextRequest(`http://localhost:3000/api/events/calendar?start=${start}&end=${end}&form=${form}`, {
        headers: { host: 'localhost:3000', cookie: `enclave_session=${cookie}`, ...headers },
      }),
      context,
    );
  const compact = await (await get('compact')).text();
  const etag = (await get('compact')).headers.get('etag')!;
  const rows: Record<string, string | number>[] = [];
  const time = async (step: string, fn: () => Promise<unknown> | unknown, n = 300) => {
    for (let i = 0; i < 30; i += 1) await fn();
    const [wall, cpu] = [performance.now(), process.cpuUsage()];
    for (let i = 0; i < n; i += 1) await fn();
    const used = process.cpuUsage(cpu);
    rows.push({ step, 'wall ms': +((performance.now() - wall) / n).toFixed(3), 'CPU ms': +((used.user + used.system) / 1000 / n).toFixed(3) });
  };
  const session = await unsealSession(cookie);
  await time('GET /api/health (floor: no session, select 1)', () =>
    health(new NextRequest('http://localhost:3000/api/health', { headers: { host: 'localhost:3000' } }), context),
  );
  await time('session: unseal the cookie (cached per process after the first)', () => unsealSession(cookie));
  await time('session: user and revocation queries', () => userForSession(session));
  await time('calendar version query', () => calendarVersion(db, user.id));
  await time('compact, If-None-Match → 304', async () => {
    const answer = await get('compact', { 'if-none-match': etag });
    if (answer.status !== 304) throw new Error(`${answer.status}`);
  });
  // What server/server.mjs answers itself under `npm start` (lib/events/calendar-fast-path.ts).
  const url = `/api/events/calendar?start=${start}&end=${end}&form=compact`;
  const fast = (ifNoneMatch?: string) => calendarFastAnswer({ url, cookie: `enclave_session=${cookie}`, ifNoneMatch, acceptEncoding: 'gzip' });
  await time('fast path: compact, If-None-Match → 304', async () => {
    if ((await fast(etag))?.status !== 304) throw new Error('no 304 from the fast path');
  });
  await time('fast path: compact → 200, gzipped once', async () => {
    if ((await fast())?.status !== 200) throw new Error('no 200 from the fast path');
  });
  await time('compact → 200 (cached expansion)', async () => (await get('compact')).text());
  await time('gzip (level 6) of that body, as Next does', () => gzipSync(compact));
  await time('full → 200 (cached)', async () => (await get('full')).text(), 30);
  console.log(
    `\nOne request in process, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'} (compact body ${(compact.length / 1024).toFixed(0)} KB, ${(gzipSync(compact).length / 1024).toFixed(0)} KB gzipped)`,
  );
  console.table(rows);
  await closeDb();
}

main().catch(async (error) => {
  console.error(error);
  await closeDb();
  process.exit(1);
});
