// What the e2e server keeps on disk: its data folder (tests/e2e/support/serve.mjs) holds the
// embedded PGlite database's files and the server's log. Tests that promise the server never
// holds something (a key, a password, what a call makes) search every one of these files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { E2E_DATA_DIR } from './constants.mjs';

/** Every file under the app's data folder (or `dir`): its PGlite database and its server log. */
export function storedFiles(dir: string = E2E_DATA_DIR): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const stat = statSync(full, { throwIfNoEntry: false });
    return stat?.isDirectory() ? storedFiles(full) : stat?.isFile() ? [full] : [];
  });
}

/** The stored files that hold `text` (as UTF-8 bytes). */
export function storedFilesHolding(text: string, dir: string = E2E_DATA_DIR): string[] {
  const bytes = Buffer.from(text, 'utf8');
  return storedFiles(dir).filter((file) => {
    try {
      return readFileSync(file).includes(bytes);
    } catch {
      return false; // gone since it was listed (a WAL segment recycled)
    }
  });
}
