// The previous release, for the upgrade test: an older commit of the project extracted with
// `git archive` into a temporary folder (the repository's own worktrees are left alone), running
// on this checkout's node_modules, which the old commit's lockfile must match.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The last release before the newest migration (drizzle/0010_billing_mode.sql): main as it
 * landed before issue 34. A database it made has migrations 0000–0009, so the current code has
 * one to apply. Move it forward when a newer migration lands (`git log --oneline -- drizzle/`,
 * then the commit before).
 */
export const PREVIOUS_RELEASE = '7dfb2ae8f07de609c425d6c5899a5977117896dd';

/**
 * Why the previous release cannot be checked out here, or null when it can: a shallow clone (CI
 * systems often clone one commit) lacks the older commit. The upgrade test says so as its skip
 * reason instead of failing on a machine that cannot run it.
 */
export function previousReleaseMissing(): string | null {
  const found = spawnSync('git', ['cat-file', '-e', `${PREVIOUS_RELEASE}^{commit}`], { encoding: 'utf8' });
  if (found.status === 0) return null;
  const shallow = spawnSync('git', ['rev-parse', '--is-shallow-repository'], { encoding: 'utf8' }).stdout.trim() === 'true';
  return `the previous release ${PREVIOUS_RELEASE.slice(0, 7)} is not in this ${shallow ? 'shallow ' : ''}clone: git fetch --unshallow, then run it again`;
}

export const migrationFiles = (root: string) => readdirSync(path.join(root, 'drizzle')).filter((name) => name.endsWith('.sql'));

export function checkOutPreviousRelease(): { dir: string; remove: () => void } {
  const root = process.cwd();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-previous-'));
  const extracted = spawnSync('sh', ['-c', `git archive ${PREVIOUS_RELEASE} | tar -x -C "${dir}"`], { encoding: 'utf8' });
  if (extracted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`git archive ${PREVIOUS_RELEASE} failed (a shallow clone lacks it: git fetch --unshallow): ${extracted.stderr}`);
  }
  const lock = (folder: string) => JSON.parse(readFileSync(path.join(folder, 'package-lock.json'), 'utf8')).packages;
  // The old release runs on this checkout's packages: each of its dependencies must be here at
  // the version range it asked for (this checkout may have more).
  const current = lock(root)[''].dependencies as Record<string, string>;
  const differing = Object.entries(lock(dir)[''].dependencies as Record<string, string>).filter(([name, range]) => current[name] !== range);
  if (differing.length > 0) {
    throw new Error(
      `${PREVIOUS_RELEASE} asks for other packages than this checkout has (${differing.map(([name, range]) => `${name}@${range}`).join(', ')}): run npm ci in its folder, or choose a newer previous release.`,
    );
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  // What fills the database runs as the old release's own code: a copy beside its scripts.
  copyFileSync(path.join(root, 'tests', 'e2e', 'support', 'fill-database.ts'), path.join(dir, 'scripts', 'fill-database.ts'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
