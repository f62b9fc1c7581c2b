#!/usr/bin/env node
// After `next build` (server/start.mjs, `npm run build`, the Containerfile): gives the chunks that
// Turbopack's runtime loads later their integrity (issue 47). Next.js's `experimental.sri` gives
// every script and stylesheet the HTML names its sha384, but the runtime that loads the other
// chunks on demand creates their <script> and <link> with no integrity. This step writes the
// hash of every other chunk into the runtime, whose loader then sets `integrity` (and
// crossorigin, which Integrity-Policy asks of a script) on each one, and gives Next.js's integrity
// manifest the runtime's new hash. A Next.js whose runtime no longer has the expected loader
// fails the build here instead of shipping chunks without integrity.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { integrityOf, isCodeFile } from '../lib/security/build-manifest.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const distDir = path.resolve(root, process.argv[2] ?? '.next');
const chunks = path.join(distDir, 'static', 'chunks');

// The runtime's loader, minified: `n.crossOrigin=o,n.src=t` for a script, `i.crossOrigin=o,i.href=t`
// for a stylesheet (`o` being next.config.mjs's crossOrigin, or null without it).
const LOADER = /([A-Za-z_$][\w$]*)\.crossOrigin=([\w$."]+),\1\.(src|href)=([A-Za-z_$][\w$]*)([,;])/g;
const PREFIX = '(()=>{';
// React adds the scripts of a page's client components itself (ReactDOM.preinit), with no
// integrity: every <script> or <link> of this build inserted into the document gets its hash
// (and CORS mode) on the way in. The runtime runs before any module of the app. A worker loads
// this runtime too (importScripts): it has no DOM, and nothing to guard.
const GUARD =
  '"undefined"!=typeof Node&&(()=>{const g=e=>{if(e&&(e.tagName==="SCRIPT"||e.tagName==="LINK")&&!e.integrity){const u=e.getAttribute(e.tagName==="SCRIPT"?"src":"href"),i=u&&__enclaveIntegrity(u);' +
  'if(i){e.integrity=i;e.crossOrigin="anonymous"}}return e};for(const k of["appendChild","insertBefore"]){const f=Node.prototype[k];' +
  'Node.prototype[k]=function(e,...r){return f.call(this,g(e),...r)}}})();';

// The runtime of the pages, which loads chunks into the document; a worker's runtime loads its
// chunks with importScripts, which takes no integrity (docs/security.md says what covers them).
const runtimes = [];
for (const name of (await readdir(chunks)).filter((entry) => /^turbopack-.*\.js$/.test(entry))) {
  const source = await readFile(path.join(chunks, name), 'utf8');
  if (source.includes('__enclaveIntegrity')) throw new Error(`build-integrity: ${name} was already given integrity (once per build)`);
  const loaders = source.match(LOADER)?.length ?? 0;
  if (loaders === 0) continue;
  if (loaders !== 2 || !source.startsWith(PREFIX)) {
    throw new Error(`build-integrity: ${name} has ${loaders} of the 2 chunk loaders expected (script, stylesheet): has Next.js changed its runtime?`);
  }
  runtimes.push({ name, source });
}
if (runtimes.length === 0) throw new Error(`build-integrity: no Turbopack runtime with a chunk loader in ${chunks}`);
const runtimeNames = runtimes.map(({ name }) => name);

// Every code file but the runtimes: what a runtime may load.
const hashes = {};
const visit = async (dir) => {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) await visit(file);
    else if (isCodeFile(entry.name) && !runtimeNames.includes(entry.name)) {
      hashes[`/_next/static/${path.relative(path.join(distDir, 'static'), file).split(path.sep).join('/')}`] = integrityOf(await readFile(file));
    }
  }
};
await visit(path.join(distDir, 'static'));
const sorted = Object.fromEntries(
  Object.keys(hashes)
    .sort()
    .map((key) => [key, hashes[key]]),
);
// A chunk's URL may carry the deployment's query (?dpl=…): looked up by its path.
const lookup = `const __enclaveIntegrity=(()=>{const m=${JSON.stringify(sorted)};return u=>{const x=new URL(u,location.href);return x.origin===location.origin&&m[x.pathname]||""}})();${GUARD}`;

const patched = {};
for (const { name, source } of runtimes) {
  const withIntegrity = source.replace(LOADER, (_, element, _crossOrigin, attribute, url, end) => {
    return `${element}.crossOrigin="anonymous",${element}.integrity=__enclaveIntegrity(${url}),${element}.${attribute}=${url}${end}`;
  });
  const text = PREFIX + lookup + withIntegrity.slice(PREFIX.length);
  await writeFile(path.join(chunks, name), text);
  patched[name] = { before: integrityOf(Buffer.from(source)), after: integrityOf(Buffer.from(text)) };
}

// Next.js's integrity manifests, which pages rendered on demand read, and the pages prerendered
// with the runtime's old hash: each names the runtime by its hash, which is replaced everywhere.
const files = [];
const collect = async (dir) => {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) await collect(file);
    else if (/\.(?:json|js|html|rsc|meta|body)$/.test(entry.name)) files.push(file);
  }
};
await collect(path.join(distDir, 'server'));
let replaced = 0;
for (const file of files) {
  const text = await readFile(file, 'utf8');
  let updated = text;
  for (const { before, after } of Object.values(patched)) updated = updated.replaceAll(before, after);
  if (updated !== text) {
    replaced += 1;
    await writeFile(file, updated);
  }
}
if (replaced === 0) throw new Error('build-integrity: no integrity manifest names the Turbopack runtime: is experimental.sri on (next.config.mjs)?');
console.log(
  `build-integrity: ${Object.keys(sorted).length} files given integrity in ${runtimeNames.join(', ')}; ${replaced} files of .next/server name its new hash`,
);
