// Issue 47: the build's manifest (lib/security/build-manifest.mjs), the runtime's integrity
// (scripts/build-integrity.mjs) and the pages' tags (server/integrity-html.mjs).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  integrityOf,
  manifestDifferences,
  manifestHash,
  manifestOf,
  manifestText,
  signedBy,
  signManifest,
  staticAssets,
} from '@/lib/security/build-manifest.mjs';
import { compressWithIntegrity, linkWithIntegrity, withIntegrity } from '@/server/integrity-html.mjs';

const root = path.resolve(__dirname, '..', '..');
const sha384 = (bytes: string | Buffer) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
let dir: string;

function put(file: string, content: string | Buffer) {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), content);
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-manifest-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the build manifest', () => {
  it('lists every file a browser can run under .next/static by its served path, and no picture, font or source map', async () => {
    put('static/chunks/a.js', 'console.log(1)');
    put('static/chunks/b.css', 'body{}');
    put('static/media/rnnoise.wasm', Buffer.from([0, 97, 115, 109]));
    put('static/media/worker.1x.ts', 'self.onmessage=()=>{}');
    put('static/media/logo.png', 'png');
    put('static/media/font.woff2', 'font');
    put('static/chunks/a.js.map', '{}');
    const assets = await staticAssets(dir);
    expect(Object.keys(assets).sort()).toEqual([
      '/_next/static/chunks/a.js',
      '/_next/static/chunks/b.css',
      '/_next/static/media/rnnoise.wasm',
      '/_next/static/media/worker.1x.ts',
    ]);
    expect(assets['/_next/static/chunks/a.js']).toBe(sha384('console.log(1)'));
  });

  it('changes when one byte of one file changes, and says which', async () => {
    put('static/chunks/a.js', 'console.log(1)');
    put('static/chunks/b.js', 'console.log(2)');
    const before = manifestOf({ version: '1.7.0', commit: 'c', assets: await staticAssets(dir) });
    put('static/chunks/b.js', 'console.log(3)');
    const after = manifestOf({ version: '1.7.0', commit: 'c', assets: await staticAssets(dir) });
    expect(manifestHash(manifestText(after))).not.toBe(manifestHash(manifestText(before)));
    expect(manifestDifferences(before, after)).toEqual([
      `/_next/static/chunks/b.js: expected ${sha384('console.log(2)')}, the server lists ${sha384('console.log(3)')}`,
    ]);
  });

  it('is the same text whatever order the files were found in', () => {
    const a = manifestText({ version: '1', commit: 'c', assets: { '/b.js': 'x', '/a.js': 'y' } });
    const b = manifestText({ version: '1', commit: 'c', assets: { '/a.js': 'y', '/b.js': 'x' } });
    expect(a).toBe(b);
    expect(manifestHash(a)).toBe(`sha256-${createHash('sha256').update(a).digest('base64')}`);
  });

  it('names a changed version or commit, a missing file and an added one', () => {
    const expected = { version: '1.7.0', commit: 'aaa', assets: { '/a.js': 'sha384-a', '/b.js': 'sha384-b' } };
    const served = { version: '1.7.1', commit: 'bbb', assets: { '/a.js': 'sha384-a', '/evil.js': 'sha384-e' } };
    expect(manifestDifferences(expected, served)).toEqual([
      'version: expected 1.7.0, served 1.7.1',
      'commit: expected aaa, served bbb',
      '/b.js: missing from the served manifest',
      '/evil.js: served but not in the expected build',
    ]);
    expect(manifestDifferences(expected, expected)).toEqual([]);
  });
});

describe('integrity for the chunks loaded later (scripts/build-integrity.mjs)', () => {
  const runtime =
    '(()=>{let o="anonymous";function L(t){let n=document.createElement("script");n.crossOrigin=o,n.src=t,document.head.appendChild(n)}' +
    'function S(t){let i=document.createElement("link");return i.rel="stylesheet",i.crossOrigin=o,i.href=t,i}})();';

  it('writes every other chunk’s hash into the runtime’s loader and the runtime’s new hash wherever Next.js named it', () => {
    put('static/chunks/turbopack-r1.js', runtime);
    put('static/chunks/later.js', 'console.log("later")');
    put('server/subresource-integrity-manifest.json', JSON.stringify({ 'static/chunks/turbopack-r1.js': sha384(runtime) }));
    put('server/app/page.html', `<script src="/_next/static/chunks/turbopack-r1.js" integrity="${sha384(runtime)}"></script>`);
    const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-integrity.mjs'), dir], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const patched = readFileSync(path.join(dir, 'static/chunks/turbopack-r1.js'), 'utf8');
    expect(patched).toContain(`"/_next/static/chunks/later.js":"${sha384('console.log("later")')}"`);
    expect(patched).toContain('n.crossOrigin="anonymous",n.integrity=__enclaveIntegrity(t),n.src=t');
    expect(patched).toContain('i.crossOrigin="anonymous",i.integrity=__enclaveIntegrity(t),i.href=t');
    expect(JSON.parse(readFileSync(path.join(dir, 'server/subresource-integrity-manifest.json'), 'utf8'))['static/chunks/turbopack-r1.js']).toBe(
      sha384(patched),
    );
    expect(readFileSync(path.join(dir, 'server/app/page.html'), 'utf8')).toContain(sha384(patched));
    // Once per build: a second run would hash the patched runtime into itself.
    expect(spawnSync(process.execPath, [path.join(root, 'scripts', 'build-integrity.mjs'), dir]).status).not.toBe(0);
  });

  it('fails the build when the runtime no longer has the loaders it knows', () => {
    put('static/chunks/turbopack-r1.js', '(()=>{let n=document.createElement("script");n.crossOrigin=o,n.src=t,document.head.appendChild(n)})();');
    put('server/subresource-integrity-manifest.json', '{}');
    const run = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-integrity.mjs'), dir], { encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('1 of the 2 chunk loaders');
  });
});

describe("the pages' tags (server/integrity-html.mjs)", () => {
  const hashes = { '/_next/static/chunks/a.js': 'sha384-A', '/_next/static/chunks/s.css': 'sha384-S' };

  it('gives a build script or stylesheet without integrity its hash and CORS mode, and leaves the rest', () => {
    expect(withIntegrity('<script src="/_next/static/chunks/a.js" async="" crossorigin=""></script>', hashes)).toBe(
      '<script src="/_next/static/chunks/a.js" async="" crossorigin="" integrity="sha384-A"></script>',
    );
    expect(withIntegrity('<link rel="stylesheet" href="/_next/static/chunks/s.css"/>', hashes)).toBe(
      '<link rel="stylesheet" href="/_next/static/chunks/s.css" integrity="sha384-S" crossorigin=""/>',
    );
    const untouched = [
      '<script src="/_next/static/chunks/a.js" integrity="sha384-other"></script>',
      '<script src="/_next/static/chunks/unknown.js"></script>',
      '<link rel="icon" href="/_next/static/chunks/a.js"/>',
      '<script>self.__next_f.push([1,"<script src=\\"/x\\">"])</script>',
    ];
    for (const html of untouched) expect(withIntegrity(html, hashes)).toBe(html);
  });

  it("gives a Link header's preload of a known asset the tag's integrity, and leaves the rest", () => {
    const preload = '</_next/static/chunks/s.css>; rel=preload; as="style"; crossorigin="anonymous"; nonce="n"';
    const font = '</_next/static/media/f.woff2>; rel=preload; as="font"';
    expect(linkWithIntegrity(`${preload}, ${font}`, hashes)).toBe(`${preload}; integrity="sha384-S", ${font}`);
    expect(linkWithIntegrity(['</_next/static/chunks/a.js>; rel=preload; as="script"'], hashes)).toEqual([
      '</_next/static/chunks/a.js>; rel=preload; as="script"; integrity="sha384-A"; crossorigin=""',
    ]);
    const untouched = [
      '</_next/static/chunks/s.css>; rel=preload; integrity="sha384-other"',
      '</_next/static/chunks/s.css>; rel=prefetch',
      '</a.css>; rel=preload',
    ];
    for (const value of untouched) expect(linkWithIntegrity(value, hashes)).toBe(value);
  });

  describe('through a server', () => {
    let server: Server;
    let base: string;
    const chunks = ['<!DOCTYPE html><html><head><scr', 'ipt src="/_next/static/chunks/a.js" async=""></script><title>Größe ', Buffer.from('€')];

    beforeAll(async () => {
      server = createServer((request, response) => {
        compressWithIntegrity(request, response, hashes);
        if (request.url === '/json') {
          response.setHeader('Content-Type', 'application/json');
          return response.end('{"src":"/_next/static/chunks/a.js"}');
        }
        response.setHeader('Content-Type', 'text/html; charset=utf-8');
        response.setHeader('Content-Length', '1');
        response.setHeader('Link', '</_next/static/chunks/s.css>; rel=preload; as="style"');
        const euro = chunks[2] as Buffer;
        response.write(chunks[0]);
        response.write(chunks[1]);
        response.write(euro.subarray(0, 1)); // a character split between two writes
        response.end(Buffer.concat([euro.subarray(1), Buffer.from('</title></head></html>')]));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const expected =
      '<!DOCTYPE html><html><head><script src="/_next/static/chunks/a.js" async="" integrity="sha384-A" crossorigin=""></script><title>Größe €</title></head></html>';

    it('rewrites a page written in pieces, a tag and a character split between writes included', async () => {
      const response = await fetch(`${base}/`, { headers: { 'Accept-Encoding': 'identity' } });
      expect(await response.text()).toBe(expected);
      expect(response.headers.get('link')).toBe('</_next/static/chunks/s.css>; rel=preload; as="style"; integrity="sha384-S"; crossorigin=""');
    });

    it('compresses after the rewrite, as Next.js did', async () => {
      const { request } = await import('node:http');
      const body = await new Promise<{ encoding?: string; bytes: Buffer }>((resolve, reject) => {
        request(`${base}/`, { headers: { 'Accept-Encoding': 'gzip' } }, (response) => {
          const parts: Buffer[] = [];
          response.on('data', (part: Buffer) => parts.push(part));
          response.on('end', () => resolve({ encoding: response.headers['content-encoding'], bytes: Buffer.concat(parts) }));
        })
          .on('error', reject)
          .end();
      });
      expect(body.encoding).toBe('gzip');
      expect(gunzipSync(body.bytes).toString('utf8')).toBe(expected);
    });

    it('leaves what is not HTML as it is', async () => {
      expect(await (await fetch(`${base}/json`, { headers: { 'Accept-Encoding': 'identity' } })).text()).toBe('{"src":"/_next/static/chunks/a.js"}');
    });
  });

  it('hashes as the integrity attribute does', () => {
    expect(integrityOf(Buffer.from('x'))).toBe(sha384('x'));
  });
});

describe('signed releases', () => {
  it('a manifest signed with the publisher’s key checks against it, and not once changed or under another key', () => {
    const { generateKeyPairSync } = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    const publisher = generateKeyPairSync('ed25519');
    const other = generateKeyPairSync('ed25519');
    const text = manifestText({ version: '1.7.0', commit: 'c', assets: { '/_next/static/chunks/a.js': sha384('a') } });
    const signature = signManifest(text, publisher.privateKey);
    expect(signedBy(text, signature, publisher.publicKey)).toBe(true);
    expect(signedBy(text.replace('1.7.0', '1.7.1'), signature, publisher.publicKey)).toBe(false);
    expect(signedBy(text, signManifest(text, other.privateKey), publisher.publicKey)).toBe(false);
    expect(signedBy(text, 'not base64 at all', publisher.publicKey)).toBe(false);
  });
});
