#!/usr/bin/env node
// `npm run bench:calendar`: expanding one month for a user with 1,000 recurring series (the pure
// expansion of lib/events, run through tsx). Prints a table; asserts nothing.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const result = spawnSync(path.join(root, 'node_modules', '.bin', 'tsx'), ['--conditions=react-server', path.join(root, 'bench', 'calendar-expand.ts')], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(result.status ?? 1);
