import 'server-only';
import { NextRequest } from 'next/server';
import { errorResponse } from '@/lib/api/handler';
import { apiAnswerHeaders, type FastAnswer } from '@/lib/api/fast-answer';
import { MAX_SIGNAL_BODY_BYTES } from '@/lib/meeting/protocol';
import type { FastPath } from '@/lib/server-seam/seam.mjs';
import { postSignal } from './signal-post';

/** `POST /api/meeting/{id}/signal` with a plain id and no query: what the fast path takes. */
const SIGNAL_PATH = /^\/api\/meeting\/([A-Za-z0-9_-]{1,128})\/signal$/;

/** What the server layer passes: the request line's path, the headers as Node parsed them, the body read. */
export interface FastPost {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * Signaling's fast path (issue 17, docs/decisions.md): server/server.mjs hands every
 * `POST /api/meeting/{id}/signal` here instead of to Next.js, whose routing cost about a third of
 * the CPU of each relayed signal — a join takes a dozen of them, while two or three browsers
 * share the cores. The answer is the route's own: the same handler (signal-post.ts) with the
 * same checks (origin, join token, body size and schema, flood limit), errors in the same
 * envelope; only the headers Next.js and proxy.ts would add are added here.
 */
export async function signalFastAnswer(post: FastPost): Promise<FastAnswer> {
  const meetingId = SIGNAL_PATH.exec(post.url)?.[1] ?? '';
  const headers = new Headers();
  for (const [name, value] of Object.entries(post.headers)) {
    // The body is the bytes read, however the request framed them.
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  let response: Response;
  try {
    const request = new NextRequest(new URL(post.url, `http://${headers.get('host') ?? 'localhost'}`), {
      method: 'POST',
      headers,
      body: new Uint8Array(post.body),
    });
    response = await postSignal(request, { params: Promise.resolve({ id: meetingId }) });
  } catch (error) {
    response = await errorResponse(error, 'en');
  }
  const answer = { ...apiAnswerHeaders() };
  response.headers.forEach((value, name) => (answer[name] = value));
  return { status: response.status, headers: answer, body: Buffer.from(await response.arrayBuffer()) };
}

/** In the server layer's list (lib/fast-paths.ts). */
export const signalFastPath: FastPath = {
  name: 'signal',
  matches: ({ method, url }) => method === 'POST' && SIGNAL_PATH.test(url),
  // More is refused by the handler (413); the server layer reads no further than this.
  maxBodyBytes: MAX_SIGNAL_BODY_BYTES + 1,
  answer: ({ url, headers, body }) => signalFastAnswer({ url, headers, body: body ?? Buffer.alloc(0) }),
};
