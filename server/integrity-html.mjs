// Integrity on the scripts and stylesheets a page's HTML names (issue 47). Next.js's
// `experimental.sri` gives its bootstrap scripts their hash, but the scripts React adds for a
// page's client components, and its stylesheets, leave without one, and Integrity-Policy (proxy.ts)
// then refuses those scripts. Every HTML answer of Next.js passes here: a <script src> or
// <link href> of this build's /_next/static/ without `integrity` gets the file's sha384 from the
// build (lib/security/build-manifest.mjs), and so does the preload of it that a `Link` header
// names. What the page adds later gets it from the runtime (scripts/build-integrity.mjs).
// Next.js's compression is done here, after this, instead of inside Next.js, which would hand
// this module gzip (next.config.mjs turns its own off).
import path from 'node:path';
import compression from 'next/dist/compiled/compression/index.js';
import { staticAssets } from '../lib/security/build-manifest.mjs';

const TAG = /<(script|link)\b[^>]*>/gi;
const ASSET = /\s(?:src|href)="(\/_next\/static\/[^"?#]+)[^"]*"/;

/** The build's hashes, read once at start: the files under .next/static never change under a running server. */
export async function buildHashes(root) {
  return staticAssets(path.join(root, '.next'));
}

/** `html` with `integrity` (and `crossorigin`, which Integrity-Policy asks of a script) on every tag naming a known asset. */
export function withIntegrity(html, hashes) {
  return html.replace(TAG, (tag, name) => {
    if (/\sintegrity=/i.test(tag)) return tag;
    const asset = ASSET.exec(tag)?.[1];
    const hash = asset && hashes[asset];
    if (!hash) return tag;
    if (name.toLowerCase() === 'link' && !/\srel="(?:stylesheet|preload|modulepreload)"/i.test(tag)) return tag;
    const end = tag.endsWith('/>') ? tag.length - 2 : tag.length - 1;
    const crossOrigin = /\scrossorigin\b/i.test(tag) ? '' : ' crossorigin=""';
    return `${tag.slice(0, end)} integrity="${hash}"${crossOrigin}${tag.slice(end)}`;
  });
}

const LINK_ENTRY = /^\s*<(\/_next\/static\/[^>?#]+)[^>]*>/;

/**
 * A `Link` header's preloads of known assets with the same `integrity` as the tags they preload:
 * Chromium uses a preload only when its integrity matches the tag's, and otherwise fetches the
 * stylesheet twice and warns "not used due to an integrity mismatch" on every page.
 */
export function linkWithIntegrity(value, hashes) {
  if (Array.isArray(value)) return value.map((entry) => linkWithIntegrity(entry, hashes));
  if (typeof value !== 'string') return value;
  return value
    .split(/,(?=\s*<)/)
    .map((entry) => {
      const hash = hashes[LINK_ENTRY.exec(entry)?.[1]];
      if (!hash || !/;\s*rel="?preload"?/i.test(entry) || /;\s*integrity=/i.test(entry)) return entry;
      const crossOrigin = /;\s*crossorigin\b/i.test(entry) ? '' : '; crossorigin=""';
      return `${entry}; integrity="${hash}"${crossOrigin}`;
    })
    .join(',');
}

/**
 * Compresses `response` as Next.js would, and rewrites its body on the way when it is HTML. A tag
 * split between two writes is held back until its end arrives.
 */
export function compressWithIntegrity(request, response, hashes) {
  compression()(request, response, () => {});
  // On a client's disconnect the middleware never ends its zlib stream (as Next.js's router-server.js does).
  response.once('close', () => {
    if (response.writableFinished) return;
    const stream = response.on('drain', noop);
    response.off('drain', noop);
    if (stream !== response && typeof stream?.destroy === 'function') stream.destroy();
  });
  const { writeHead, write, end } = response;
  let html = null;
  let pending = '';
  const isHtml = () => {
    if (html === null) html = /^text\/html\b/i.test(String(response.getHeader('content-type') ?? ''));
    // The body's length changes: it is sent chunked (or compressed, which drops the length too).
    if (html && !response.headersSent) response.removeHeader('content-length');
    return html;
  };
  const rewrite = (chunk, encoding, last) => {
    // Read byte for byte (latin1): the tags are ASCII, and a character split between two chunks stays whole.
    let text =
      pending +
      (typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk ?? '')).toString('latin1');
    pending = '';
    if (!last) {
      const open = text.lastIndexOf('<');
      if (open !== -1 && text.indexOf('>', open) === -1) {
        pending = text.slice(open);
        text = text.slice(0, open);
      }
    }
    return withIntegrity(text, hashes);
  };
  response.writeHead = function (status, ...rest) {
    const headers = rest[typeof rest[0] === 'string' ? 1 : 0];
    if (response.hasHeader('link')) response.setHeader('link', linkWithIntegrity(response.getHeader('link'), hashes));
    if (headers && !Array.isArray(headers)) {
      for (const key of Object.keys(headers)) if (key.toLowerCase() === 'link') headers[key] = linkWithIntegrity(headers[key], hashes);
      const type = Object.keys(headers).find((key) => key.toLowerCase() === 'content-type');
      if (type) html = /^text\/html\b/i.test(String(headers[type]));
      if (html) for (const key of Object.keys(headers)) if (key.toLowerCase() === 'content-length') delete headers[key];
    }
    isHtml();
    return writeHead.call(this, status, ...rest);
  };
  response.write = function (chunk, encoding, callback) {
    if (!isHtml()) return write.call(this, chunk, encoding, callback);
    const done = typeof encoding === 'function' ? encoding : callback;
    return write.call(this, rewrite(chunk, encoding, false), 'latin1', done);
  };
  response.end = function (chunk, encoding, callback) {
    if (typeof chunk === 'function') return end.call(this, isHtml() && pending ? rewrite('', undefined, true) : undefined, 'latin1', chunk);
    if (!isHtml()) return end.call(this, chunk, encoding, callback);
    const done = typeof encoding === 'function' ? encoding : callback;
    const text = chunk === undefined || chunk === null ? (pending ? rewrite('', undefined, true) : undefined) : rewrite(chunk, encoding, true);
    return end.call(this, text, 'latin1', done);
  };
}

const noop = () => {};
