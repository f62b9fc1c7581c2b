// The DTLS certificate of a Node participant of the large-room bench (node-peer.ts): made with
// openssl into the crowd's folder, its fingerprint announced through the app's key exchange as a
// page announces its own.
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { normalizeFingerprint } from '@/lib/meeting/e2ee/signing';

/** An ECDSA P-256 certificate for DTLS, as the browser makes one per page (openssl, from Debian). */
export function makeCertificate(dir: string, name: string) {
  const certFile = path.join(dir, `${name}.cert.pem`);
  const keyFile = path.join(dir, `${name}.key.pem`);
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=enclave-bench',
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
  const fingerprint = normalizeFingerprint(`sha-256 ${new X509Certificate(readFileSync(certFile)).fingerprint256}`);
  if (!fingerprint) throw new Error('no fingerprint');
  return { certFile, keyFile, fingerprint };
}

export type NodeCertificate = ReturnType<typeof makeCertificate>;
