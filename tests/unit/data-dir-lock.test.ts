import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DataDirInUseError, lockDataDir, lockFile, lockHolder } from '@/lib/db/data-dir-lock';

// Issue 34, item 5: the embedded database serves one process; the lock file says which.
describe('the embedded database folder lock', () => {
  let root: string;
  let folder: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'enclave-lock-'));
    folder = path.join(root, 'data', 'pglite');
    mkdirSync(path.dirname(folder));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const holdAs = (pid: number, host = os.hostname()) =>
    writeFileSync(lockFile(folder), JSON.stringify({ pid, host, command: 'server/server.mjs', since: '2026-01-01T00:00:00Z' }));

  it('is written beside the folder, taken again by the same process, and removed at the last release', () => {
    const first = lockDataDir(folder);
    expect(JSON.parse(readFileSync(path.join(root, 'data', 'pglite.lock'), 'utf8'))).toMatchObject({ pid: process.pid, host: os.hostname() });
    const second = lockDataDir(folder);
    first();
    first();
    expect(existsSync(lockFile(folder))).toBe(true);
    second();
    expect(existsSync(lockFile(folder))).toBe(false);
  });

  it('refuses while another live process holds it, naming that process', async () => {
    const other = spawn('sleep', ['30']);
    try {
      holdAs(other.pid!);
      expect(lockHolder(folder)?.pid).toBe(other.pid);
      expect(() => lockDataDir(folder)).toThrow(DataDirInUseError);
      expect(() => lockDataDir(folder)).toThrow(`is in use by process ${other.pid} on ${os.hostname()} (server/server.mjs`);
    } finally {
      other.kill();
      await new Promise((resolve) => other.once('exit', resolve));
    }
    // Its process gone, the lock is stale and taken over.
    expect(lockHolder(folder)).toBeUndefined();
    const release = lockDataDir(folder);
    expect(JSON.parse(readFileSync(lockFile(folder), 'utf8')).pid).toBe(process.pid);
    release();
  });

  it("counts another machine's lock as held: its process cannot be checked from here", () => {
    holdAs(999_999, 'another-host');
    expect(() => lockDataDir(folder)).toThrow(`remove ${lockFile(folder)}`);
  });
});
