// A browser profile home whose NSS database trusts one CA, as a person trusts their company's
// CA: Chromium on Linux reads user-added roots from $HOME/.pki/nssdb. The page then has a valid
// certificate, not one whose error was waved through (--ignore-certificate-errors).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TrustStore {
  /** The HOME to launch Chromium with. */
  home: string;
  remove: () => void;
}

/** `certutil` comes with Debian's libnss3-tools. */
export function trustStoreWith(caPem: string, nickname: string): TrustStore {
  const home = mkdtempSync(path.join(os.tmpdir(), 'enclave-nss-'));
  const db = path.join(home, '.pki', 'nssdb');
  mkdirSync(db, { recursive: true });
  const ca = path.join(home, 'ca.crt');
  writeFileSync(ca, caPem);
  execFileSync('certutil', ['-N', '-d', `sql:${db}`, '--empty-password']);
  // "C,,": a CA trusted to issue server certificates.
  execFileSync('certutil', ['-A', '-d', `sql:${db}`, '-n', nickname, '-t', 'C,,', '-i', ca]);
  return { home, remove: () => rmSync(home, { recursive: true, force: true }) };
}
