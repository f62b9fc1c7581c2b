// What an answer's headers may carry (issue 44, item 5): nothing of Next.js's internal plumbing,
// and nothing that grows with the request. A 4,000-byte path came back with 5.3 KB of headers,
// because Next.js's x-middleware-rewrite named the rewritten path to the client; behind nginx's
// default 4 KB proxy buffer that is a 502. Every answer passes here as its headers are written.

/** Headers between Next.js's proxy (middleware) and its router, never meant for a client. */
const INTERNAL = /^x-middleware-/i;
/** Next.js's headers for its own client router: kept on the router's requests only, and short. */
const ROUTER = /^x-nextjs-/i;
const MAX_ROUTER_HEADER_BYTES = 1024;
/**
 * The longest Location a redirect may carry. A redirect that would echo a longer address (the
 * locale's prefix or a dropped trailing slash on a long path) answers 414 instead: no page of the
 * app has such an address (a sign-in's redirect to an OpenID provider is some 600 bytes), and with
 * the ~1.2 KB every page answer carries, headers stay under nginx's default 4 KB buffer.
 */
export const MAX_LOCATION_BYTES = 1536;

const bytes = (value) => Buffer.byteLength(Array.isArray(value) ? value.join(', ') : String(value ?? ''));

/**
 * Wraps `response` so that whatever writes its head (Next.js, a fast path, the server layer)
 * leaves out internal headers, and a redirect to an over-long address becomes `refuse(414)`.
 * @param {(response: import('node:http').ServerResponse, status: number, headers?: object) => void} refuse
 *   writes a whole answer of the server layer's own (server/refusals.mjs refuser, bound to the request).
 */
export function limitAnswerHeaders(request, response, refuse) {
  const forRouter = Boolean(request.headers.rsc || request.headers['next-action']);
  const dropped = (name, value) => INTERNAL.test(name) || (ROUTER.test(name) && (!forRouter || bytes(value) > MAX_ROUTER_HEADER_BYTES));
  const { writeHead, write, end, flushHeaders } = response;
  let refused = false;
  let refusing = false;

  /** True (and the 414 written) when the head about to go out is a redirect that echoes too much. */
  const refusedRedirect = (status, extra) => {
    if (status < 300 || status >= 400) return false;
    if (bytes(response.getHeader('location') ?? valueIn(extra, 'location')) <= MAX_LOCATION_BYTES) return false;
    refused = true;
    // Only the request's id (lib/metrics/request-start.ts) is kept of what the redirect had.
    for (const name of response.getHeaderNames()) if (name !== 'x-request-id') response.removeHeader(name);
    refusing = true;
    try {
      refuse(response, 414, { Connection: 'close' });
    } finally {
      refusing = false;
    }
    return true;
  };
  const beforeHead = () => !response.headersSent && refusedRedirect(response.statusCode);

  response.writeHead = function (status, ...rest) {
    if (refusing) return writeHead.call(this, status, ...rest);
    if (refused) return this;
    const extraIndex = typeof rest[0] === 'string' ? 1 : 0;
    const extra = rest[extraIndex];
    if (refusedRedirect(status, extra)) return this;
    // Next.js's Refresh repeats a redirect's Location for clients that ignore it: none do.
    const redirect = status >= 300 && status < 400;
    const drop = (name, value) => dropped(name, value) || (redirect && /^refresh$/i.test(name));
    for (const name of this.getHeaderNames()) if (drop(name, this.getHeader(name))) this.removeHeader(name);
    const args = [...rest];
    if (extra !== undefined) args[extraIndex] = withoutDropped(extra, drop);
    return writeHead.call(this, status, ...args);
  };
  // A head written implicitly (by write, end, flushHeaders) is checked before it goes, so that a
  // refused redirect's body is never written after the 414.
  response.write = function (...args) {
    if (refusing) return write.apply(this, args);
    if (refused || beforeHead()) return true;
    return write.apply(this, args);
  };
  response.end = function (...args) {
    if (refusing) return end.apply(this, args);
    if (refused || beforeHead()) {
      const callback = args.find((arg) => typeof arg === 'function');
      if (callback) this.once('finish', callback);
      return this;
    }
    return end.apply(this, args);
  };
  response.flushHeaders = function () {
    if (refusing || !(refused || beforeHead())) flushHeaders.call(this);
  };
}

/** A header's value in writeHead's headers argument: an object, or a flat [name, value, …] list. */
function valueIn(headers, wanted) {
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() === wanted) return headers[i + 1];
    return undefined;
  }
  if (!headers) return undefined;
  const key = Object.keys(headers).find((name) => name.toLowerCase() === wanted);
  return key === undefined ? undefined : headers[key];
}

function withoutDropped(headers, dropped) {
  if (Array.isArray(headers)) {
    const kept = [];
    for (let i = 0; i + 1 < headers.length; i += 2) if (!dropped(String(headers[i]), headers[i + 1])) kept.push(headers[i], headers[i + 1]);
    return kept;
  }
  if (!headers || typeof headers !== 'object') return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name, value]) => !dropped(name, value)));
}
