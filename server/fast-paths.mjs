// The fast paths (issue 17): routes the app answers without Next.js's routing, which cost more CPU
// than the rest of a calendar revalidation and a third of each relayed signal. The app registers
// the list at start (lib/fast-paths.ts, from instrumentation.ts); this only runs it.
// Each is optional (docs/decisions.md, "A fast path is optional"): the route answers the same.
import { closedAnswerHeaders } from '../lib/security/base-headers.mjs';
import { FAST_PATHS, fromSeam } from '../lib/server-seam/seam.mjs';

// The last resort when a fast path throws (each answers its own errors): never a stack trace.
const internalError = () => ({
  status: 500,
  headers: { ...closedAnswerHeaders, 'Content-Type': 'application/json' },
  body: Buffer.from(JSON.stringify({ status: 'error', errorCode: 'error_contact_us' })),
});

/** The registered fast path that takes this request, if any. */
export function fastPathFor(request) {
  const asked = { method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers };
  return fromSeam(FAST_PATHS)?.find((fastPath) => fastPath.matches(asked));
}

/**
 * Answers `request` through `fastPath`, or hands it to Next.js (`next`) when the fast path leaves
 * it. A body is read up to the fast path's limit: a longer one reaches the handler too long and is
 * refused (413) at once, as through Next.js; the rest is not kept (Node reads and drops it once the
 * answer is sent, so the connection stays usable).
 */
export async function answerFast(fastPath, request, response, next) {
  let body;
  if (fastPath.maxBodyBytes !== undefined) {
    try {
      body = await readBody(request, fastPath.maxBodyBytes);
    } catch {
      return void response.destroy(); // the client went away mid-body
    }
  }
  let answer;
  try {
    answer = await fastPath.answer({ method: request.method, url: request.url, headers: request.headers, body });
  } catch {
    answer = internalError();
  }
  // A body read cannot be read again by Next.js: such a fast path must answer.
  if (!answer && body) answer = internalError();
  if (!answer) return next(request, response);
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
}

/** A request's body, or, as soon as it passes `limit` bytes, what came so far. */
function readBody(request, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      if (size > limit) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) resolve(Buffer.concat(chunks));
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
    request.on('aborted', () => reject(new Error('aborted')));
  });
}
