// A text/event-stream parser (the WHATWG "server-sent events" format) over a byte stream, for
// reading the signaling stream with fetch(). Comments (heartbeats) are skipped.

export interface StreamMessage {
  id: string | null;
  event: string;
  data: string;
}

export async function* parseEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let id: string | null = null;
  let event = 'message';
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        if (line === '') {
          if (data.length) yield { id, event, data: data.join('\n') };
          event = 'message';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const raw = colon === -1 ? '' : line.slice(colon + 1);
        const text = raw.startsWith(' ') ? raw.slice(1) : raw;
        if (field === 'data') data.push(text);
        else if (field === 'event') event = text;
        else if (field === 'id' && !text.includes('\0')) id = text;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
