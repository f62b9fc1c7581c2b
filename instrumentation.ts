// Runs once when the server starts: open the database and apply migrations before any request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getDb } = await import('@/lib/db/client');
  await getDb();
}
