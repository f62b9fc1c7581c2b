import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './lib/db/schema',
  out: './drizzle',
  casing: 'snake_case',
});
