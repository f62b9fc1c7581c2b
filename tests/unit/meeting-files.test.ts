/** @jest-environment node */
// File transfers' pure parts (docs/meetings.md "Files"): the chunk seal under a per-file key,
// and the checks every file message passes before the receiver acts on it.
import { createHash, createDecipheriv } from 'node:crypto';
import { base64urlDecode } from '@/lib/meeting/e2ee/bytes';
import { CHUNK_BYTES, chunkCount, fileKeyFrom, newFileKey, openChunk, sealChunk, sha256Hex } from '@/lib/meeting/client/files/file-crypto';
import { parseFileMessage, safeFileName } from '@/lib/meeting/client/files/file-messages';

const plain = (size: number, fill = 7) => new Uint8Array(size).fill(fill);

describe('file chunks', () => {
  it('open in order under the offer key, and the format is the documented one', async () => {
    const sender = await newFileKey();
    const receiver = (await fileKeyFrom(sender.encoded))!;
    const chunk = plain(CHUNK_BYTES, 3);
    const sealed = await sealChunk(sender.key, 'transfer-1', 5, chunk);
    expect(sealed.length).toBe(4 + CHUNK_BYTES + 16);
    expect(await openChunk(receiver.key, 'transfer-1', 5, sealed)).toEqual(chunk);

    // Recomputed with node:crypto from the documented nonce and AAD (file-crypto.ts header).
    const index = Buffer.alloc(8);
    index.writeBigUInt64BE(5n);
    const id = Buffer.from('transfer-1');
    const aad = Buffer.concat([Buffer.from('enclave file v1'), Buffer.from([0, id.length]), id, index]);
    const decipher = createDecipheriv('aes-256-gcm', base64urlDecode(sender.encoded)!, Buffer.concat([Buffer.alloc(4), index]));
    decipher.setAAD(aad);
    decipher.setAuthTag(Buffer.from(sealed.subarray(sealed.length - 16)));
    expect(Buffer.concat([decipher.update(sealed.subarray(4, sealed.length - 16)), decipher.final()])).toEqual(Buffer.from(chunk));
  });

  it('refuse a chunk out of order, for another transfer, under another key, or altered', async () => {
    const key = await newFileKey();
    const other = await newFileKey();
    const sealed = await sealChunk(key.key, 't', 2, plain(100));
    expect(await openChunk(key.key, 't', 1, sealed)).toBeNull();
    expect(await openChunk(key.key, 't', 3, sealed)).toBeNull();
    expect(await openChunk(key.key, 'u', 2, sealed)).toBeNull();
    expect(await openChunk(other.key, 't', 2, sealed)).toBeNull();
    for (const at of [0, 3, 4, 50, sealed.length - 1]) {
      const altered = sealed.slice();
      altered[at]! ^= 1;
      expect(await openChunk(key.key, 't', 2, altered)).toBeNull();
    }
    expect(await openChunk(key.key, 't', 2, sealed.subarray(0, 19))).toBeNull();
  });

  it('a key is 32 random bytes, and a text that is not one is refused', async () => {
    const a = await newFileKey();
    const b = await newFileKey();
    expect(a.encoded).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.encoded).not.toBe(b.encoded);
    expect(await fileKeyFrom('too-short')).toBeNull();
    expect(await fileKeyFrom(`${a.encoded}A`)).toBeNull();
  });

  it('count chunks and hash like node:crypto', async () => {
    expect([0, 1, CHUNK_BYTES, CHUNK_BYTES + 1, 50 * 1024 * 1024].map(chunkCount)).toEqual([0, 1, 1, 2, 800]);
    const data = plain(1000, 42);
    expect(await sha256Hex(data)).toBe(createHash('sha256').update(data).digest('hex'));
  });
});

describe('file messages', () => {
  const offer = { t: 'file-offer', id: 'a1b2', name: 'report.pdf', size: 1234, mime: 'application/pdf', sha256: 'ab'.repeat(32), key: 'A'.repeat(43) };

  it('take a well-formed offer and its answers', () => {
    expect(parseFileMessage(offer)).toEqual(offer);
    expect(parseFileMessage({ t: 'file-accept', id: 'a1b2' })).toEqual({ t: 'file-accept', id: 'a1b2' });
    expect(parseFileMessage({ t: 'file-decline', id: 'a1b2', reason: 'too-large' })).toEqual({ t: 'file-decline', id: 'a1b2', reason: 'too-large' });
    expect(parseFileMessage({ t: 'file-decline', id: 'a1b2', reason: 'whatever' })).toEqual({ t: 'file-decline', id: 'a1b2', reason: 'declined' });
    expect(parseFileMessage({ t: 'file-received', id: 'a1b2', ok: false })).toEqual({ t: 'file-received', id: 'a1b2', ok: false });
  });

  it('refuse what a peer should not send', () => {
    for (const bad of [
      { ...offer, id: '../x' },
      { ...offer, id: 'x'.repeat(65) },
      { ...offer, size: 0 },
      { ...offer, size: 1.5 },
      { ...offer, size: Number.MAX_SAFE_INTEGER + 2 },
      { ...offer, size: '12' },
      { ...offer, sha256: 'AB'.repeat(32) },
      { ...offer, key: 'short' },
      { ...offer, name: 5 },
      { t: 'file-received', id: 'a1b2' },
      { t: 'file-unknown', id: 'a1b2' },
      null,
      'file-offer',
    ])
      expect(parseFileMessage(bad)).toBeNull();
  });

  it('keep only a name: no folders, no control characters, odd types become plain bytes', () => {
    expect(parseFileMessage({ ...offer, name: '../../etc/passwd', mime: 'text/html; x' })).toMatchObject({ name: 'passwd', mime: 'application/octet-stream' });
    expect(safeFileName('C:\\Users\\a\\b.txt')).toBe('b.txt');
    expect(safeFileName('a\u0000b\u001fc.txt')).toBe('abc.txt');
    expect(safeFileName('..')).toBe('file');
    expect(safeFileName('x'.repeat(500))).toHaveLength(200);
  });
});

describe('two file managers, wired to each other', () => {
  // Each side's messages reach the other as the sealed chat channel would deliver them (in order);
  // no data channel: these cover what happens before a byte moves.
  async function pair(limits: { ada: number; bo: number }) {
    const { FileTransfers } = await import('@/lib/meeting/client/files/transfers');
    const sides: Record<'ada' | 'bo', InstanceType<typeof FileTransfers>> = {} as never;
    const make = (self: 'ada' | 'bo', other: 'ada' | 'bo') =>
      new FileTransfers({
        limit: limits[self],
        peers: () => [{ id: other, name: other === 'ada' ? 'Ada' : 'Bo' }],
        send: (_peer, message) => {
          // A copy, as JSON over the channel would be.
          queueMicrotask(() => sides[other].receive(self, JSON.parse(JSON.stringify(message))));
          return true;
        },
        openChannel: async () => null,
      });
    sides.ada = make('ada', 'bo');
    sides.bo = make('bo', 'ada');
    return sides;
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  const file = (size: number) => new File([new Uint8Array(size)], 'notes.txt', { type: 'text/plain' });

  it('the sender refuses a file above its limit or an empty one; nobody is asked', async () => {
    const { ada, bo } = await pair({ ada: 100, bo: 100 });
    expect(await ada.sendFile(file(101), 'everyone')).toBe('too-large');
    expect(await ada.sendFile(file(0), 'everyone')).toBe('empty');
    expect(await ada.sendFile(file(10), 'somebody-else')).toBe('nobody');
    await settle();
    expect(bo.getSnapshot()).toEqual([]);
  });

  it('the receiver refuses an offer above its own limit, unseen, and the sender reads why', async () => {
    const { ada, bo } = await pair({ ada: 1000, bo: 100 });
    expect(await ada.sendFile(file(500), 'bo')).toBe('sent');
    await settle();
    expect(bo.getSnapshot()).toMatchObject([{ direction: 'in', status: 'failed', problem: 'too-large', bytes: 0 }]);
    expect(ada.getSnapshot()).toMatchObject([{ direction: 'out', status: 'failed', problem: 'too-large' }]);
  });

  it('an offer waits for an answer; decline and cancel reach the other side', async () => {
    const { ada, bo } = await pair({ ada: 100, bo: 100 });
    await ada.sendFile(file(10), 'bo');
    await settle();
    expect(bo.getSnapshot()).toMatchObject([{ name: 'notes.txt', size: 10, status: 'incoming', peerName: 'Ada' }]);
    expect(ada.getSnapshot()).toMatchObject([{ status: 'waiting', peerName: 'Bo' }]);
    bo.decline(bo.getSnapshot()[0]!.key);
    await settle();
    expect(ada.getSnapshot()).toMatchObject([{ status: 'declined' }]);

    await ada.sendFile(file(20), 'bo');
    await settle();
    ada.cancel(ada.getSnapshot()[1]!.key);
    await settle();
    expect(bo.getSnapshot()[1]).toMatchObject({ status: 'cancelled', problem: 'by-peer' });
    // Too late to accept a cancelled offer.
    bo.accept(bo.getSnapshot()[1]!.key);
    expect(bo.getSnapshot()[1]).toMatchObject({ status: 'cancelled' });
  });

  it('a peer who leaves ends what was going on with them, and says so', async () => {
    const { ada, bo } = await pair({ ada: 100, bo: 100 });
    await ada.sendFile(file(10), 'bo');
    await settle();
    bo.peerGone('ada');
    expect(bo.getSnapshot()).toMatchObject([{ status: 'failed', problem: 'peer-left' }]);
  });
});
