import postgres from 'postgres';

/**
 * A file that sends every due row of the outbox (deliverDueMail) would, on PostgreSQL, send the
 * other files' mail and they its own: such a file points DATABASE_URL at a database of its own
 * before it imports anything that reads it. On PGlite every file has its own database already.
 * Answers the function that drops it again.
 */
export async function useOwnPostgresDatabase(name: string): Promise<(() => Promise<void>) | undefined> {
  const shared = process.env.DATABASE_URL;
  if (!shared) return undefined;
  const admin = postgres(shared, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  const own = new URL(shared);
  own.pathname = `/${name}`;
  process.env.DATABASE_URL = own.toString();
  return async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}
