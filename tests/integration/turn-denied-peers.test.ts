// Issue 44 ("also"): the shipped deploy/turnserver.conf keeps a TURN credential from relaying into
// the server's own networks, IPv4 addresses written as IPv6 included (::ffff:127.0.0.1 is the
// loopback to a dual-stack relay socket). Checked on Debian's coturn itself, started with the
// shipped file: a relay is allocated in each family and a permission asked for each peer; coturn
// answers 403 where it will not relay. tests/unit/deploy-files.test.ts reads the file's ranges.
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import path from 'node:path';
import { TurnClient, turnCredentials } from '../support/turn-client';

const SECRET = 'turn-denied-peers-secret';
let coturn: ChildProcess;
let port = 0;

/** A UDP port nobody holds now (coturn takes it right after). */
function freeUdpPort(): Promise<number> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.bind(0, '127.0.0.1', () => {
      const { port: found } = socket.address();
      socket.close(() => resolve(found));
    });
  });
}

beforeAll(async () => {
  port = await freeUdpPort();
  // The shipped file, with what compose.yaml passes on the command line (realm, secret, relay
  // range) and this machine's loopback for listening and relaying, in both families.
  coturn = spawn(
    'turnserver',
    [
      '-c',
      path.join(process.cwd(), 'deploy', 'turnserver.conf'),
      '--listening-ip=127.0.0.1',
      '--relay-ip=127.0.0.1',
      '--relay-ip=::1',
      `--listening-port=${port}`,
      `--min-port=${port + 1}`,
      `--max-port=${port + 40}`,
      `--static-auth-secret=${SECRET}`,
      '--realm=enclave.test',
      '--pidfile=',
      '--no-stdout-log',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  coturn.stdout!.on('data', (chunk) => (output += chunk));
  coturn.stderr!.on('data', (chunk) => (output += chunk));
  const spawned = new Promise((resolve, reject) => coturn.once('error', reject).once('spawn', resolve));
  await spawned;
  // Ready once it answers an Allocate (401, asking for credentials).
  for (const deadline = Date.now() + 15_000; ;) {
    const probe = new TurnClient({ host: '127.0.0.1', port }, { username: 'x', password: 'x' });
    const answered = await probe.allocate(4).then(
      (answer) => answer.code === 401 || answer.code === 403,
      () => false,
    );
    probe.close();
    if (answered) break;
    if (coturn.exitCode !== null || Date.now() > deadline) throw new Error(`coturn did not start: ${output}`);
  }
}, 30_000);

afterAll(() => void coturn?.kill('SIGTERM'));

async function permissions(family: 4 | 6, peers: string[]): Promise<Record<string, number | 'relayed'>> {
  const client = new TurnClient({ host: '127.0.0.1', port }, turnCredentials(SECRET));
  try {
    const allocation = await client.allocate(family);
    expect([family, allocation.ok, allocation.code]).toEqual([family, true, null]);
    const result: Record<string, number | 'relayed'> = {};
    for (const peer of peers) {
      const answer = await client.permit(peer);
      result[peer] = answer.ok ? 'relayed' : answer.code!;
    }
    return result;
  } finally {
    client.close();
  }
}

describe('coturn with deploy/turnserver.conf', () => {
  it('relays to a public IPv4 peer, never to loopback or private IPv4 ones', async () => {
    const denied = ['127.0.0.1', '10.0.0.1', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '198.18.0.1'];
    expect(await permissions(4, ['8.8.8.8', ...denied])).toEqual({
      '8.8.8.8': 'relayed',
      ...Object.fromEntries(denied.map((peer) => [peer, 403])),
    });
  });

  it('never relays to an IPv4-mapped or -compatible loopback or private address, nor IPv6 loopback and private ones', async () => {
    const denied = [
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:172.16.0.1',
      '::ffff:192.168.1.1',
      '::ffff:169.254.169.254',
      '::ffff:100.64.0.1',
      '::ffff:0.0.0.0',
      '::ffff:198.18.0.1',
      '::127.0.0.1',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
    ];
    expect(await permissions(6, ['2001:db8::7', ...denied])).toEqual({
      '2001:db8::7': 'relayed',
      ...Object.fromEntries(denied.map((peer) => [peer, 403])),
    });
  });
});
