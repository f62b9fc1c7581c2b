import { sql } from 'drizzle-orm';
import { NextResponse } from 'next/server';
import { apiRoute } from '@/lib/api/handler';
import { getDb } from '@/lib/db/client';
import { describeError, log } from '@/lib/log';

// GET /api/health – the app is up and reaches its database (monitors and status pages may ask from anywhere)
export const GET = apiRoute({ auth: 'none', crossSiteGet: true }, async () => {
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
    return { status: 'ok', db: 'ok' };
  } catch (error) {
    log.error('health check: database unreachable', describeError(error));
    return NextResponse.json({ status: 'error', db: 'unreachable' }, { status: 503 });
  }
});
