// `npm run bench:hub`: how many signaling events per second the hub relays, and with what
// latency, in-process and over Redis (two hub instances = two app instances). Prints a
// table; asserts nothing.
import os from 'node:os';
import Redis from 'ioredis';
import type { ServerEvent } from '@/lib/meeting/protocol';
import type { Hub } from '@/lib/meeting-server/hub';
import { MemoryHub } from '@/lib/meeting-server/hub-memory';
import { RedisHub } from '@/lib/meeting-server/hub-redis';
import { percentile } from './lib/stats.mjs';
import { sleep } from './lib/time.mjs';

const MESSAGES = Number(process.env.MESSAGES ?? 20_000);
const PARTICIPANTS = 10;
const CANDIDATE_ENVELOPE = JSON.stringify({
  k: 'signed',
  signal: {
    from: 'p0',
    to: 'p1',
    seq: 1,
    body: { candidate: { candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host', sdpMid: '0', sdpMLineIndex: 0 } },
    sig: 'A'.repeat(86),
  },
});
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Publishes MESSAGES signals round-robin to PARTICIPANTS subscribers; publisher and subscribers may be different hubs. */
async function run(label: string, publisher: Hub, subscriber: Hub) {
  const meetingId = `bench-${Date.now()}`;
  const latencies: number[] = [];
  let received = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const unsubscribe = await Promise.all(
    Array.from({ length: PARTICIPANTS }, (_, i) =>
      subscriber.subscribe(meetingId, `p${i}`, (event: ServerEvent) => {
        if (event.type !== 'signal') return;
        latencies.push(performance.now() - Number(event.from));
        if (++received === MESSAGES) done();
      }),
    ),
  );
  await sleep(200);
  const started = performance.now();
  // Bursts of 100 in flight, like a newcomer's offers and candidates to many peers.
  for (let sent = 0; sent < MESSAGES; sent += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, MESSAGES - sent) }, (_, i) =>
        publisher.publish(meetingId, `p${(sent + i) % PARTICIPANTS}`, {
          type: 'signal',
          from: String(performance.now()),
          // The size of a signed ICE candidate envelope (docs/e2ee-crypto.md "Signaling").
          envelope: CANDIDATE_ENVELOPE,
        }),
      ),
    );
  }
  await finished;
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(unsubscribe.map((stop) => stop()));
  latencies.sort((a, b) => a - b);
  return {
    hub: label,
    messages: MESSAGES,
    'msgs/s': Math.round(MESSAGES / seconds),
    'p50 ms': percentile(latencies, 50).toFixed(3),
    'p99 ms': percentile(latencies, 99).toFixed(3),
  };
}

async function main() {
  const rows = [];
  const memory = new MemoryHub();
  rows.push(await run('in-process', memory, memory));
  const west = new RedisHub(new Redis(redisUrl), new Redis(redisUrl));
  const east = new RedisHub(new Redis(redisUrl), new Redis(redisUrl));
  rows.push(await run('Redis, across two instances', west, east));
  await Promise.all([west.close(), east.close()]);
  console.log(`\nSignaling hub (${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, ${new Date().toISOString().slice(0, 10)})`);
  console.table(rows);
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
