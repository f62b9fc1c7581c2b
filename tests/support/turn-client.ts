// A minimal TURN client over UDP (RFC 5766/8656, long-term credentials of coturn's
// use-auth-secret): Allocate a relay, then ask for a permission to a peer, to learn whether the
// server would relay there. Only what tests/integration/turn-denied-peers.test.ts needs.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { isIPv4 } from 'node:net';

const MAGIC = 0x2112a442;
const ALLOCATE = 0x0003;
const CREATE_PERMISSION = 0x0008;
const ATTR = { username: 0x0006, integrity: 0x0008, errorCode: 0x0009, xorPeer: 0x0012, realm: 0x0014, nonce: 0x0015, family: 0x0017, transport: 0x0019 };

type Attribute = [type: number, value: Buffer];

/** The answer's class and, for an error, its code (401, 403, 440…). */
export interface TurnAnswer {
  ok: boolean;
  code: number | null;
  attributes: Map<number, Buffer>;
}

function attribute([type, value]: Attribute): Buffer {
  const padded = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
  padded.writeUInt16BE(type, 0);
  padded.writeUInt16BE(value.length, 2);
  value.copy(padded, 4);
  return padded;
}

function encode(method: number, transaction: Buffer, attributes: Attribute[], key?: Buffer): Buffer {
  const body = Buffer.concat(attributes.map(attribute));
  const header = Buffer.alloc(20);
  header.writeUInt16BE(method, 0);
  header.writeUInt32BE(MAGIC, 4);
  transaction.copy(header, 8);
  if (!key) {
    header.writeUInt16BE(body.length, 2);
    return Buffer.concat([header, body]);
  }
  // MESSAGE-INTEGRITY: HMAC-SHA1 over the message with the length that already counts it.
  header.writeUInt16BE(body.length + 24, 2);
  const mac = createHmac('sha1', key)
    .update(Buffer.concat([header, body]))
    .digest();
  return Buffer.concat([header, body, attribute([ATTR.integrity, mac])]);
}

function decode(message: Buffer): TurnAnswer {
  const type = message.readUInt16BE(0);
  const attributes = new Map<number, Buffer>();
  for (let at = 20; at + 4 <= message.length;) {
    const kind = message.readUInt16BE(at);
    const length = message.readUInt16BE(at + 2);
    attributes.set(kind, message.subarray(at + 4, at + 4 + length));
    at += 4 + Math.ceil(length / 4) * 4;
  }
  const error = attributes.get(ATTR.errorCode);
  return { ok: (type & 0x0110) === 0x0100, code: error ? error[2]! * 100 + error[3]! : null, attributes };
}

/** XOR-PEER-ADDRESS of `address` (IPv4, or IPv6 such as "::ffff:127.0.0.1"). */
function xorPeer(address: string, port: number, transaction: Buffer): Buffer {
  const magic = Buffer.alloc(4);
  magic.writeUInt32BE(MAGIC);
  const bytes = isIPv4(address) ? Buffer.from(address.split('.').map(Number)) : ipv6Bytes(address);
  const mask = Buffer.concat([magic, transaction]);
  const value = Buffer.alloc(4 + bytes.length);
  value[1] = bytes.length === 4 ? 0x01 : 0x02;
  value.writeUInt16BE(port ^ (MAGIC >>> 16), 2);
  bytes.forEach((byte, i) => (value[4 + i] = byte ^ mask[i]!));
  return value;
}

function ipv6Bytes(address: string): Buffer {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.replace(v4[1]!, `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`);
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  const bytes = Buffer.alloc(16);
  groups.forEach((group: string, i: number) => bytes.writeUInt16BE(parseInt(group, 16), i * 2));
  return bytes;
}

/** One client with one allocation on `server`, relayed in the family it asks for. */
export class TurnClient {
  private readonly socket: Socket = createSocket('udp4');
  private key: Buffer | null = null;
  private realm: Buffer = Buffer.alloc(0);
  private nonce: Buffer = Buffer.alloc(0);

  constructor(
    private readonly server: { host: string; port: number },
    private readonly credentials: { username: string; password: string },
  ) {}

  /** Sends one request (signed once the server has told its realm and nonce) and waits for its answer. */
  private ask(method: number, attributesFor: (transaction: Buffer) => Attribute[]): Promise<TurnAnswer> {
    const transaction = randomBytes(12);
    const auth: Attribute[] = this.key
      ? [
          [ATTR.username, Buffer.from(this.credentials.username)],
          [ATTR.realm, this.realm],
          [ATTR.nonce, this.nonce],
        ]
      : [];
    const message = encode(method, transaction, [...attributesFor(transaction), ...auth], this.key ?? undefined);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer from the TURN server')), 5_000);
      const onMessage = (answer: Buffer) => {
        if (!answer.subarray(8, 20).equals(transaction)) return;
        clearTimeout(timer);
        this.socket.off('message', onMessage);
        resolve(decode(answer));
      };
      this.socket.on('message', onMessage);
      this.socket.send(message, this.server.port, this.server.host);
    });
  }

  /** Allocates a UDP relay of `family` (an IPv6 one can reach IPv6 peers, mapped ones included). */
  async allocate(family: 4 | 6): Promise<TurnAnswer> {
    const request = (): Attribute[] => [
      [ATTR.transport, Buffer.from([17, 0, 0, 0])],
      [ATTR.family, Buffer.from([family === 4 ? 0x01 : 0x02, 0, 0, 0])],
    ];
    const challenge = await this.ask(ALLOCATE, request);
    if (challenge.code !== 401) return challenge;
    this.realm = challenge.attributes.get(ATTR.realm)!;
    this.nonce = challenge.attributes.get(ATTR.nonce)!;
    this.key = createHash('md5').update(`${this.credentials.username}:${this.realm.toString()}:${this.credentials.password}`).digest();
    return this.ask(ALLOCATE, request);
  }

  /** CreatePermission for `peer`: 403 when the server refuses to relay there. */
  permit(peer: string): Promise<TurnAnswer> {
    return this.ask(CREATE_PERMISSION, (transaction) => [[ATTR.xorPeer, xorPeer(peer, 9, transaction)]]);
  }

  close() {
    this.socket.close();
  }
}

/** coturn's use-auth-secret credentials (as lib/meeting's /ice hands them out). */
export function turnCredentials(secret: string, user = 'turn-test'): { username: string; password: string } {
  const username = `${Math.floor(Date.now() / 1000) + 3600}:${user}`;
  return { username, password: createHmac('sha1', secret).update(username).digest('base64') };
}
