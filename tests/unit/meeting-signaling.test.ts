/** @jest-environment node */
// The browser's end of the join and the event stream (signaling.ts): a join whose answer is the
// stream hands that stream to the session, which reads it before opening one of its own.
import { parseEventStream } from '@/lib/meeting/client/signaling/event-stream';
import { postJoin, SignalingClient } from '@/lib/meeting/client/signaling/signaling';
import type { ServerEvent } from '@/lib/meeting/protocol';
import { until } from '../support/until';

const encoder = new TextEncoder();

/** A response body that sends `chunks`, then stays open until `end` is called (as a live stream). */
function eventStream(chunks: string[]) {
  let end!: () => void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      end = () => controller.close();
    },
  });
  return { body, end: () => end() };
}

const sse = (headers: Record<string, string> = {}) => ({ 'content-type': 'text/event-stream; charset=utf-8', ...headers });
const realFetch = global.fetch;
afterEach(() => {
  global.fetch = realFetch;
});

describe('postJoin', () => {
  it('asks for the stream; a `joined` first event is the answer, and the rest of the stream is kept for the session', async () => {
    const requests: RequestInit[] = [];
    const live = eventStream([
      'retry: 1000\n\n',
      'event: joined\ndata: {"status":"ok","token":"t"}\n\n',
      'id: 7\nevent: welcome\ndata: {"type":"welcome"}\n\n',
    ]);
    global.fetch = (async (_url: string, init: RequestInit) => {
      requests.push(init);
      return new Response(live.body, { headers: sse() });
    }) as typeof fetch;
    const { answer, stream } = await postJoin('m1', { name: 'Ada' });
    expect(answer).toEqual({ status: 'ok', token: 't' });
    expect((requests[0]!.headers as Record<string, string>).accept).toContain('text/event-stream');
    expect((await stream!.messages.next()).value).toMatchObject({ id: '7', event: 'welcome' });
    live.end();
  });

  it('a refusal answers JSON, with no stream', async () => {
    global.fetch = (async () =>
      new Response(JSON.stringify({ status: 'error', errorCode: 'incorrect_password', field: 'password' }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      })) as typeof fetch;
    expect(await postJoin('m1', {})).toEqual({ answer: { status: 'error', errorCode: 'incorrect_password', field: 'password' }, stream: null });
  });

  it('a stream that does not start with `joined`, or no answer at all, is an error the lobby can show', async () => {
    global.fetch = (async () => new Response(eventStream(['event: welcome\ndata: {}\n\n']).body, { headers: sse() })) as typeof fetch;
    expect(await postJoin('m1', {})).toEqual({ answer: { status: 'error', errorCode: 'error_contact_us' }, stream: null });
    global.fetch = (async () => {
      throw new TypeError('network down');
    }) as typeof fetch;
    expect(await postJoin('m1', {})).toEqual({ answer: { status: 'error', errorCode: 'error_contact_us' }, stream: null });
  });
});

describe('SignalingClient with the stream the join opened', () => {
  it('reads it first, and after it drops reconnects with GET and the last event id', async () => {
    const first = eventStream(['id: 7\nevent: welcome\ndata: {"type":"welcome"}\n\n']);
    const gets: { url: string; headers: Record<string, string> }[] = [];
    global.fetch = (async (url: string, init: RequestInit) => {
      gets.push({ url, headers: init.headers as Record<string, string> });
      return new Response(eventStream(['id: 8\nevent: leave\ndata: {"type":"leave"}\n\n']).body, { headers: sse() });
    }) as typeof fetch;
    const events: ServerEvent['type'][] = [];
    const abort = new AbortController();
    const client = new SignalingClient({
      meetingId: 'm1',
      token: 'tok',
      onEvent: (event) => events.push(event.type),
      opened: { messages: parseEventStream(first.body), abort },
    });
    client.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([events, gets.length]).toEqual([['welcome'], 0]);
    first.end();
    await until(() => events.length >= 2, 'the second event');
    expect(events).toEqual(['welcome', 'leave']);
    expect(gets[0]).toMatchObject({ url: '/api/meeting/m1/signal', headers: { authorization: 'Bearer tok', 'last-event-id': '7' } });
    client.close();
    expect(abort.signal.aborted).toBe(true);
  });
});
