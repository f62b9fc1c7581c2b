/** @jest-environment node */
// Issue 44 point 6: what a hostile sender can do to a receiver with a file offer, and what the
// receiver does about it (docs/meetings.md "Files"): names that hide their type, a declared size
// the bytes never fill, and a transfer whose sender stops.
import { FileTransfers } from '@/lib/meeting/client/files/transfers';
import { FALLBACK_FILE_NAME, parseFileMessage, safeFileName } from '@/lib/meeting/client/files/file-messages';
import { newFileKey, sealChunk, CHUNK_BYTES } from '@/lib/meeting/client/files/file-crypto';
import { INITIAL_RESERVE, ReceiveBuffer } from '@/lib/meeting/client/files/receive-buffer';
import { STALL_MS, StallWatch } from '@/lib/meeting/client/files/stall-watch';
import type { FileMessage } from '@/lib/meeting/client/files/file-messages';

const MB = 1024 * 1024;

describe('offered names', () => {
  it('lose the bidi overrides and isolates that disguise a type, on the receiving side', () => {
    const offer = { t: 'file-offer', id: 'a1', size: 10, mime: 'application/pdf', sha256: 'ab'.repeat(32), key: 'A'.repeat(43) };
    // Shown as "invoiceexe.pdf" by a browser that honours U+202E; it is an .exe.
    expect(parseFileMessage({ ...offer, name: 'invoice\u202Efdp.exe' })).toMatchObject({ name: 'invoicefdp.exe' });
    for (const mark of ['\u202A', '\u202B', '\u202C', '\u202D', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'])
      expect(safeFileName(`report${mark}.txt`)).toBe('report.txt');
  });

  it('lose every invisible or line-breaking character, and never end up empty', () => {
    expect(safeFileName('a\u200Bb\u200Dc\uFEFF\u00AD.txt')).toBe('abc.txt');
    expect(safeFileName('two\u2028lines\u2029.txt')).toBe('twolines.txt');
    expect(safeFileName('tab\there\r\n.txt')).toBe('tabhere.txt');
    expect(safeFileName('lone\uD800half.txt')).toBe('lonehalf.txt');
    // An override hiding a folder is still a folder.
    expect(safeFileName('..\u202E/..\u202E/evil.sh')).toBe('evil.sh');
    for (const nothing of ['\u202E', '\u202E\u200B\u2066', ' \u00AD ', '.\u202E.', '...', '', 'dir/']) expect(safeFileName(nothing)).toBe(FALLBACK_FILE_NAME);
  });

  it('are cut by characters, never in the middle of one', () => {
    const name = safeFileName(`${'x'.repeat(199)}😀😀.txt`);
    expect(Array.from(name)).toHaveLength(200);
    expect(name.endsWith('😀')).toBe(true);
    expect(name).not.toMatch(/[\uD800-\uDFFF](?![\uDC00-\uDFFF])/u);
  });
});

describe('the receive buffer', () => {
  it('reserves at most INITIAL_RESERVE for any declared size, and grows with what arrives', () => {
    const buffer = new ReceiveBuffer(100 * MB);
    expect(buffer.reserved).toBe(INITIAL_RESERVE);
    const chunk = new Uint8Array(CHUNK_BYTES).fill(1);
    let most = 0;
    for (let sent = 0; sent < 20 * MB; sent += CHUNK_BYTES) {
      expect(buffer.append(chunk)).toBe(true);
      most = Math.max(most, buffer.reserved);
      // Never more than four times what arrived (or the first reserve).
      expect(buffer.reserved).toBeLessThanOrEqual(Math.max(INITIAL_RESERVE, 4 * buffer.length));
    }
    expect(most).toBeLessThan(100 * MB);
    expect(buffer.bytes().length).toBe(20 * MB);
  });

  it('ends exactly the declared size, keeps the bytes in order, and refuses one byte more', () => {
    const size = 5 * MB + 123;
    const buffer = new ReceiveBuffer(size);
    for (let at = 0; at < size; at += CHUNK_BYTES) {
      const length = Math.min(CHUNK_BYTES, size - at);
      expect(buffer.append(new Uint8Array(length).fill((at / CHUNK_BYTES) % 251))).toBe(true);
    }
    const bytes = buffer.bytes();
    expect([bytes.length, buffer.reserved]).toEqual([size, size]);
    expect([bytes[0], bytes[CHUNK_BYTES], bytes[size - 1]]).toEqual([0, 1, Math.floor((size - 1) / CHUNK_BYTES) % 251]);
    expect(buffer.append(new Uint8Array(1))).toBe(false);
    expect(buffer.length).toBe(size);
  });

  it('a small file takes its own size, no more', () => {
    expect(new ReceiveBuffer(1000).reserved).toBe(1000);
  });
});

describe('the stall watch', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('fires once STALL_MS pass without a touch, never while things move, never once stopped', () => {
    const stalled = jest.fn();
    const watch = new StallWatch(stalled);
    watch.touch();
    for (let i = 0; i < 5; i += 1) {
      jest.advanceTimersByTime(STALL_MS - 1);
      watch.touch();
    }
    expect(stalled).not.toHaveBeenCalled();
    jest.advanceTimersByTime(STALL_MS);
    expect(stalled).toHaveBeenCalledTimes(1);
    expect(watch.running).toBe(false);
    watch.touch();
    watch.stop();
    jest.advanceTimersByTime(10 * STALL_MS);
    expect(stalled).toHaveBeenCalledTimes(1);
  });

  it('waits a sensible while: long enough for a slow link, short of a whole call', () => {
    expect(STALL_MS).toBeGreaterThanOrEqual(15_000);
    expect(STALL_MS).toBeLessThanOrEqual(60_000);
  });
});

describe('a receiver and a hostile sender', () => {
  afterEach(() => jest.useRealTimers());

  /** Bo's file manager, and what it sends back to "mallory". */
  function receiver(limit = 100 * MB) {
    const sent: FileMessage[] = [];
    const bo = new FileTransfers({
      limit,
      peers: () => [{ id: 'mallory', name: 'Mallory' }],
      send: (_peer, message) => sent.push(message) > 0,
      openChannel: async () => null,
    });
    return { bo, sent };
  }
  const offer = async (fields: Record<string, unknown> = {}) => ({
    t: 'file-offer',
    id: 'evil-1',
    name: 'invoice\u202Efdp.exe',
    size: 100 * MB,
    mime: 'text/html',
    sha256: 'ab'.repeat(32),
    key: (await newFileKey()).encoded,
    ...fields,
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('shows the name without its override, and accepting reserves memory only as bytes come', async () => {
    const { bo } = receiver();
    bo.receive('mallory', await offer());
    await settle();
    const [view] = bo.getSnapshot();
    expect(view).toMatchObject({ name: 'invoicefdp.exe', size: 100 * MB, status: 'incoming', reserved: 0 });
    bo.accept(view!.key);
    expect(bo.getSnapshot()[0]).toMatchObject({ status: 'active' });
    expect(bo.getSnapshot()[0]!.reserved).toBeLessThanOrEqual(INITIAL_RESERVE);
    bo.close();
  });

  it('ends a transfer whose sender stops, says so, and tells the sender why', async () => {
    const { bo, sent } = receiver();
    bo.receive('mallory', await offer());
    await settle();
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    bo.accept(bo.getSnapshot()[0]!.key);
    expect(sent).toEqual([{ t: 'file-accept', id: 'evil-1' }]);
    jest.advanceTimersByTime(STALL_MS - 1);
    expect(bo.getSnapshot()[0]).toMatchObject({ status: 'active' });
    jest.advanceTimersByTime(1);
    expect(bo.getSnapshot()[0]).toMatchObject({ status: 'failed', problem: 'stalled', reserved: 0 });
    expect(sent.at(-1)).toEqual({ t: 'file-cancel', id: 'evil-1', reason: 'stalled' });
  });

  it('a chunk that arrives puts the stall off; the sender reads "stalled" when the receiver ends it', async () => {
    const sender = new FileTransfers({ limit: MB, peers: () => [{ id: 'bo', name: 'Bo' }], send: () => true, openChannel: async () => null });
    await sender.sendFile(new File([new Uint8Array(10)], 'notes.txt'), 'bo');
    const [out] = sender.getSnapshot();
    sender.receive('bo', { t: 'file-cancel', id: out!.id, reason: 'stalled' });
    expect(sender.getSnapshot()[0]).toMatchObject({ status: 'failed', problem: 'stalled' });

    // The receiver's side, with a real sealed chunk on a stand-in channel.
    const key = await newFileKey();
    const { bo } = receiver();
    bo.receive('mallory', await offer({ key: key.encoded, size: 3 * CHUNK_BYTES }));
    await settle();
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    bo.accept(bo.getSnapshot()[0]!.key);
    const channel = { label: 'file:evil-1', close: jest.fn() } as unknown as RTCDataChannel & { onmessage: (event: { data: ArrayBuffer }) => void };
    bo.channel('mallory', channel);
    jest.advanceTimersByTime(STALL_MS / 2);
    const sealed = await sealChunk(key.key, 'evil-1', 0, new Uint8Array(CHUNK_BYTES));
    channel.onmessage({ data: sealed.buffer.slice(sealed.byteOffset, sealed.byteOffset + sealed.byteLength) });
    // The chunk opens in WebCrypto, in real time: taken, it adds the progress timer to the stall
    // watch's, and the screen hears of it when that fires.
    const started = process.hrtime.bigint();
    while (jest.getTimerCount() < 2 && process.hrtime.bigint() - started < 10_000_000_000n) await new Promise((resolve) => setImmediate(resolve));
    const waited = 100;
    jest.advanceTimersByTime(waited);
    expect(bo.getSnapshot()[0]).toMatchObject({ status: 'active', bytes: CHUNK_BYTES });
    // STALL_MS from the chunk, not from the accept.
    jest.advanceTimersByTime(STALL_MS - waited - 100);
    expect(bo.getSnapshot()[0]).toMatchObject({ status: 'active' });
    jest.advanceTimersByTime(waited + 100);
    expect(bo.getSnapshot()[0]).toMatchObject({ status: 'failed', problem: 'stalled' });
  });
});
