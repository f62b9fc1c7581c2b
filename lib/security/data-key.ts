import 'server-only';
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { getSessionSecret } from '@/lib/environment';

// Secrets the database must not hold in clear (issue 16, item 9: the TOTP secret), sealed with
// AES-256-GCM under a key that lives outside the database: DATA_KEY, else one derived from
// SESSION_SECRET (generated once and kept in DATA_DIR). A sealed value names its key, so a new
// key can be introduced while DATA_KEY_PREVIOUS still opens what the old one sealed (docs/security.md).
//
// Format: "enc1.<key id>.<iv>.<ciphertext+tag>" (base64url); anything else is a value stored
// before sealing began, read as it is and sealed on its next write.

const PREFIX = 'enc1';

interface DataKey {
  id: string;
  key: Buffer;
}

function keyFrom(secret: string): DataKey {
  const key = Buffer.from(hkdfSync('sha256', secret, 'enclave data key', 'enclave data key v1', 32));
  return { id: createHash('sha256').update(key).digest('base64url').slice(0, 8), key };
}

let keys: { current: DataKey; all: DataKey[] } | undefined;

function dataKeys() {
  if (!keys) {
    const current = keyFrom(process.env.DATA_KEY?.trim() || getSessionSecret());
    const previous = process.env.DATA_KEY_PREVIOUS?.trim();
    keys = { current, all: previous ? [current, keyFrom(previous)] : [current] };
  }
  return keys;
}

/** Seals a secret for the database. `context` binds it to its place (a user id): moved, it fails. */
export function sealSecret(plain: string, context: string): string {
  const { current } = dataKeys();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', current.key, iv);
  cipher.setAAD(Buffer.from(context));
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return [PREFIX, current.id, iv.toString('base64url'), sealed.toString('base64url')].join('.');
}

/** Opens a sealed secret; a value from before sealing comes back as it is. Throws when no key opens it. */
export function openSecret(stored: string, context: string): string {
  const [prefix, keyId, iv, sealed] = stored.split('.');
  if (prefix !== PREFIX || !keyId || !iv || !sealed) return stored;
  const dataKey = dataKeys().all.find((candidate) => candidate.id === keyId);
  if (!dataKey) throw new Error(`no data key ${keyId}: set DATA_KEY (or DATA_KEY_PREVIOUS) to the key that sealed it`);
  const bytes = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', dataKey.key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
}

/** Whether a stored value is sealed with the current key (else it should be sealed again). */
export function isSealedWithCurrentKey(stored: string): boolean {
  return stored.startsWith(`${PREFIX}.${dataKeys().current.id}.`);
}

/** For tests: forget the keys read from the environment. */
export function resetDataKeys() {
  keys = undefined;
}
