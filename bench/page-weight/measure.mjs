// First-load JavaScript of a page: the scripts its HTML names, fetched from the server that
// served it, summed raw and gzipped at level 9 (what a compressing server would send at best).
import { gzipSync } from 'node:zlib';

const kb = (bytes) => bytes / 1024;

/** The script URLs of a page, once each. noModule scripts are polyfills current browsers never download. */
function scriptSources(html) {
  const tags = [...html.matchAll(/<script[^>]+src="([^"]+)"[^>]*>/g)].filter((m) => !/noModule/i.test(m[0]));
  return [...new Set(tags.map((m) => m[1].replaceAll('&amp;', '&')))];
}

async function fetchBytes(url, headers) {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/**
 * Weighs one page. A page that does not answer 200 is still weighed (a 404 page has scripts
 * too) and its status reported, so that a missing page shows in the table instead of failing.
 * headers (a session cookie for the app's pages) go with the page's request and its scripts'.
 */
export async function weighPage(base, page, headers = undefined) {
  const res = await fetch(new URL(page, base), { headers });
  const html = await res.text();
  // Redirects are followed; the path shown is where they ended.
  const finalPath = new URL(res.url).pathname;
  const scripts = scriptSources(html);
  let raw = 0;
  let gzip = 0;
  for (const src of scripts) {
    const body = await fetchBytes(new URL(src, res.url), headers);
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return {
    page,
    status: res.status,
    redirectedTo: finalPath !== new URL(page, base).pathname ? finalPath : null,
    scripts: scripts.length,
    jsKb: kb(raw),
    jsGzKb: kb(gzip),
    htmlKb: kb(Buffer.byteLength(html)),
  };
}
