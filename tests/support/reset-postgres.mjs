import postgres from 'postgres';

// Starts each run from an empty schema, so that tests never see an older run's tables or rows.
export default async function resetPostgres() {
  const sql = postgres(process.env.TEST_DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe('drop schema if exists drizzle cascade; drop schema if exists public cascade; create schema public;');
  } finally {
    await sql.end();
  }
}
