// `npm run release:sign -- --key publisher.pem [--out release]`: signs the manifest of the build in
// .next (lib/release/manifest.ts) with the publisher's Ed25519 key (issue 47, docs/security.md "A
// web client anyone can verify"). Writes <out>/build.json (the manifest as the server serves it)
// and <out>/build.json.sig; `npm run verify -- <url> --expect <out>/build.json --key publisher.pub.pem`
// then checks a server against the signed release. `--new-key publisher.pem` makes a key pair
// first (publisher.pem, private, mode 600; publisher.pub.pem, to publish): keep the private one offline.
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { manifestText, signManifest } from '../lib/security/build-manifest.mjs';
import { localManifest } from '../lib/release/manifest';

async function main() {
  const args = process.argv.slice(2);
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const fresh = option('--new-key');
  const keyFile = fresh ?? option('--key');
  const out = option('--out') ?? 'release';
  if (!keyFile) throw new Error('Usage: npm run release:sign -- --key publisher.pem [--out release]   (or --new-key publisher.pem)');
  if (fresh) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    await writeFile(fresh, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    await writeFile(fresh.replace(/\.pem$/, '') + '.pub.pem', publicKey.export({ type: 'spki', format: 'pem' }), { flag: 'wx' });
    console.log(`New key pair: ${fresh} (private: keep it offline) and ${fresh.replace(/\.pem$/, '')}.pub.pem (publish it)`);
  }
  const privateKey = createPrivateKey(await readFile(keyFile));
  const text = manifestText(await localManifest());
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, 'build.json'), text);
  await writeFile(path.join(out, 'build.json.sig'), `${signManifest(text, privateKey)}\n`);
  // The public key beside them: a server whose release folder holds it says it signs (lib/release/signature.ts).
  await writeFile(path.join(out, 'publisher.pub.pem'), createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }));
  const publicKey = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  console.log(`Signed ${path.join(out, 'build.json')} (commit ${JSON.parse(text).commit}) with the key ${publicKey}`);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
