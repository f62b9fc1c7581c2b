import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';

let list: Set<string> | undefined;

/** True when the password is one of the 10,000 most common ones (compared lower-cased). */
export function isCommonPassword(password: string): boolean {
  list ??= new Set(
    readFileSync(path.join(/*turbopackIgnore: true*/ process.cwd(), 'lib/auth/common-passwords.txt'), 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#')),
  );
  return list.has(password.toLowerCase());
}
