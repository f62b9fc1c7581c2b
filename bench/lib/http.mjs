// A small HTTP client for the reliability benches, bench/signal-hops.mjs and
// scripts/test-container.mjs: one cookie jar per "browser", the app's own Origin on every call,
// and a client address (X-Forwarded-For, the instances trust loopback).
export function browser(ip = '127.0.0.1') {
  const jar = new Map();
  async function call(base, method, path, body, headers = {}) {
    const started = performance.now();
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        origin: base,
        'x-forwarded-for': ip,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(jar.size && { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      // An answer that takes longer counts as a hang (status 0).
      signal: AbortSignal.timeout(60_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const type = response.headers.get('content-type') ?? '';
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = type.includes('image/') ? '' : bytes.toString('utf8');
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: the caller reads text or bytes
    }
    return { status: response.status, json, text, bytes, type, headers: response.headers, ms: performance.now() - started };
  }
  return {
    jar,
    get: (base, path, headers) => call(base, 'GET', path, undefined, headers),
    post: (base, path, body, headers) => call(base, 'POST', path, body, headers),
  };
}

/** Runs `tasks` (functions returning promises) with at most `width` at a time; answers their results in order. */
export async function pool(tasks, width) {
  const results = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

/**
 * Opens a server-sent event stream (a GET, or what `init` asks for: the POST /join that answers
 * with the stream); `events` fills as they arrive, each with its `eventName`; `onEvent` answers its unsubscribe, `close()` ends the stream.
 */
export async function eventStream(url, headers, init = {}) {
  const abort = new AbortController();
  const response = await fetch(url, { ...init, headers, signal: abort.signal });
  const events = [];
  const listeners = new Set();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('\n');
          if (!data) continue;
          const eventName = /^event: ?(.*)$/m.exec(block)?.[1] ?? 'message';
          const event = { ...JSON.parse(data), eventName, receivedAt: performance.now() };
          events.push(event);
          listeners.forEach((listener) => listener(event));
        }
      }
    } catch {
      // closed
    }
  })();
  return { status: response.status, events, onEvent: (listener) => (listeners.add(listener), () => listeners.delete(listener)), close: () => abort.abort() };
}

/** "key: count, key: count" of a list of answers, keyed by `keyOf` (status and error code by default). */
export function tally(list, keyOf = (a) => `${a.status} ${a.json?.errorCode ?? a.json?.status ?? ''}`.trim()) {
  const counts = new Map();
  for (const item of list) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return [...counts].map(([key, n]) => `${key}: ${n}`).join(', ') || 'none';
}
