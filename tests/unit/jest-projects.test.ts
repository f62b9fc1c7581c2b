import { readFileSync } from 'node:fs';
import { readModules } from '../../scripts/import-graph';
import { DATABASE_FREE } from '../support/database-free.mjs';

// The PostgreSQL run leaves out the integration files listed as database-free
// (tests/support/database-free.mjs): a listed file must not reach lib/db/ through what it imports,
// or the PostgreSQL run would silently stop covering database code.
describe('the database-free integration files', () => {
  const modules = readModules();
  const moduleOf = (specifier: string) => ['.ts', '.tsx', '/index.ts'].map((end) => specifier + end).find((file) => modules.has(file));

  /** Every lib/ module the file's value imports reach, transitively. */
  function reached(testFile: string): Set<string> {
    const text = readFileSync(testFile, 'utf8');
    const queue = [...text.matchAll(/^import (?!type )[^;]*?from '@\/(lib\/[^']+)'/gm)].map((match) => moduleOf(match[1]!)).filter(Boolean) as string[];
    const seen = new Set<string>();
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      queue.push(...(modules.get(file)?.valueImports ?? []));
    }
    return seen;
  }

  it.each(DATABASE_FREE)('%s reaches no database module', (name) => {
    const file = `tests/integration/${name}.test.ts`;
    expect([...reached(file)].filter((module) => module.startsWith('lib/db/'))).toEqual([]);
  });

  it('a file that reaches the database is told apart (the check can fail)', () => {
    expect([...reached('tests/integration/email-change.test.ts')].some((module) => module === 'lib/db/client.ts')).toBe(true);
  });
});
