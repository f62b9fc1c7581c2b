/** The most connections postgres.js opens to PostgreSQL per process (lib/db/client.ts). */
export const POSTGRES_POOL_MAX = 10;
