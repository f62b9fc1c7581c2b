// The production topology of docs/self-hosting/reverse-proxy.md, on loopback (issue 34, item 3):
// Debian's Caddy terminates TLS with its local CA in front of two production servers
// (server/server.mjs, what `npm start` runs) sharing PostgreSQL and Redis; coturn relays the
// media (use-auth-secret); two browsers meet over https://enclave.test, one through each instance.
//
// Each browser has its own client address (support/client-network.ts: 127.0.10.1 and 127.0.20.1,
// a forward proxy per context that also resolves enclave.test, so Chromium never has to),
// Caddy pins each address to one instance (remote_ip routes, as ip-hash stickiness would) and
// forwards it in X-Forwarded-For; the instances trust Caddy's address (TRUSTED_PROXIES=127.0.0.1),
// so their rate limiter must count each browser under its own address, never Caddy's.
import { randomBytes } from 'node:crypto';
import { expect, test, type Browser } from '@playwright/test';
import Redis from 'ioredis';
import { startCaddy, type Caddy } from './support/caddy';
import { launchChromium } from '../support/chromium.mjs';
import { startClientNetwork, type ClientNetwork } from './support/client-network';
import { createDatabase, extraPort, seed, startInstance, startTurn, tempDataDir, type Instance } from './support/instances';
import { expectMediaFromPeers, joinMeeting, peerStats, type Participant } from './support/meeting';
import { trustStoreWith, type TrustStore } from './support/trust-store';

test.describe.configure({ timeout: 150_000 });

const HOST = 'enclave.test';
const CADDY_ADDRESS = '127.0.0.1';
const clients = { west: '127.0.10.1', east: '127.0.20.1' } as const;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The keys rate-limiter-flexible keeps for a limit and a client (lib/security/rate-limit.ts). */
const limiterKey = (limit: string, address: string) => `enclave:${limit}:${address}`;

test('two browsers meet over HTTPS through Caddy, one per app instance, media relayed by coturn, each limited by its own address', async () => {
  const started = Date.now();
  const cleanups: (() => Promise<void> | void)[] = [];
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  cleanups.push(() => void redis.disconnect());
  const trackedKeys = Object.values(clients).flatMap((address) => [limiterKey('meeting-join-ip', address), limiterKey('rate-ip', address)]);
  // A run before this one may have counted these addresses within the limits' windows.
  await redis.del(...trackedKeys);
  cleanups.push(async () => void (await redis.del(...trackedKeys)));
  let browser: Browser | undefined;
  const open: Participant[] = [];
  const logs: [string, () => string][] = [];
  try {
    const secret = `turn-secret-${Date.now()}`;
    const turnPort = extraPort(40);
    const turn = await startTurn(turnPort, secret);
    cleanups.push(() => turn.stop());

    const database = await createDatabase();
    cleanups.push(() => database.drop());
    const data = tempDataDir();
    cleanups.push(() => data.remove());
    const httpsPort = extraPort(32);
    const origin = `https://${HOST}:${httpsPort}`;
    const env = {
      DATA_DIR: data.dir,
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      APP_URL: origin,
      // A public APP_URL in production needs its own key for sealed secrets (lib/startup-checks.ts).
      DATA_KEY: randomBytes(32).toString('base64'),
      TRUSTED_PROXIES: CADDY_ADDRESS,
      TURN_URLS: `turn:127.0.0.1:${turnPort}?transport=udp`,
      TURN_SECRET: secret,
      ICE_TRANSPORT_POLICY: 'relay',
    };
    const instances: Instance[] = [];
    cleanups.push(() => Promise.all(instances.map((instance) => instance.stop())).then(() => undefined));
    // The first instance migrates the new database before the seed writes to it.
    instances.push(await startInstance(extraPort(30), env, { server: 'production' }));
    const account = seed(env, `topology-${Date.now()}@enclave.local`);
    instances.push(await startInstance(extraPort(31), env, { server: 'production' }));
    instances.forEach((instance, index) => logs.push([`instance ${index + 1}`, instance.output]));

    const caddy: Caddy = await startCaddy({
      host: HOST,
      bind: CADDY_ADDRESS,
      httpsPort,
      httpPort: extraPort(33),
      routes: [
        { name: 'west', clientAddress: clients.west, upstream: `127.0.0.1:${extraPort(30)}` },
        { name: 'east', clientAddress: clients.east, upstream: `127.0.0.1:${extraPort(31)}` },
      ],
    });
    cleanups.push(() => caddy.stop());
    logs.push(['caddy', caddy.output]);
    expect(caddy.origin).toBe(origin);

    const networks: Record<keyof typeof clients, ClientNetwork> = {
      west: await startClientNetwork(clients.west, { [HOST]: CADDY_ADDRESS }),
      east: await startClientNetwork(clients.east, { [HOST]: CADDY_ADDRESS }),
    };
    cleanups.push(() => Promise.all(Object.values(networks).map((network) => network.stop())).then(() => undefined));

    // The browser trusts Caddy's CA as a person would trust their own (no certificate errors
    // waved through), so the page is a secure context on a name that is not localhost.
    const trust: TrustStore = trustStoreWith(caddy.rootCertificate, 'Enclave test Caddy CA');
    cleanups.push(() => trust.remove());
    browser = await launchChromium({ env: { ...process.env, HOME: trust.home } });

    const setUp = Date.now();
    const participants = {} as Record<keyof typeof clients, Participant>;
    for (const side of ['west', 'east'] as const) {
      let upstream: string | undefined;
      participants[side] = await joinMeeting(browser, origin, account.meetingId, {
        name: side === 'west' ? 'West' : 'East',
        contextOptions: { proxy: { server: networks[side].proxy } },
        // Which of Caddy's routes served the meeting page (its X-Enclave-Upstream header).
        prepare: async (context) => {
          context.on('response', (response) => {
            if (response.url().startsWith(`${origin}/now/`) && response.request().resourceType() === 'document')
              upstream = response.headers()['x-enclave-upstream'];
          });
        },
      });
      open.push(participants[side]);
      const page = participants[side].page;
      expect(upstream).toBe(side);
      expect(
        await page.evaluate(() => ({ origin: location.origin, secure: window.isSecureContext, media: typeof navigator.mediaDevices?.getUserMedia })),
      ).toEqual({ origin, secure: true, media: 'function' });
    }
    const { west, east } = participants;

    await expect(west.page.getByRole('figure', { name: 'East', exact: true })).toBeVisible({ timeout: 20_000 });
    await expectMediaFromPeers(west.page, 1, 45_000);
    await expectMediaFromPeers(east.page, 1, 45_000);
    // Both ends of the call use a candidate pair through coturn: no direct path was allowed.
    for (const participant of [west, east]) {
      expect(Object.values(await peerStats(participant.page)).map((stats) => stats.candidateType)).toEqual(['relay']);
    }
    // Each participant's event stream is held by a different instance: the call crossed Redis.
    const roster = Object.values(await redis.hgetall(`enclave:meeting:${account.meetingId}:roster`)).map(
      (raw) => JSON.parse(raw) as { name: string; instance: string },
    );
    expect(roster.map((entry) => entry.name).sort()).toEqual(['East', 'West']);
    expect(new Set(roster.map((entry) => entry.instance)).size).toBe(2);

    // The join limit counted each browser once, under its own address.
    expect(await redis.get(limiterKey('meeting-join-ip', clients.west))).toBe('1');
    expect(await redis.get(limiterKey('meeting-join-ip', clients.east))).toBe('1');

    // A per-address limit (ratings: 10 an hour) runs out for West; East, behind the same Caddy, is
    // still served. Had the limiter counted Caddy's address, East would be refused as well.
    const rate = (participant: Participant) =>
      participant.page.evaluate(async () => {
        const answer = await fetch('/api/rate', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ rating: 5 }) });
        return answer.status;
      });
    const westAnswers: number[] = [];
    for (let i = 0; i < 11; i += 1) westAnswers.push(await rate(west));
    expect(westAnswers).toEqual([...Array<number>(10).fill(200), 429]);
    expect(await rate(east)).toBe(200);
    expect(await redis.get(limiterKey('rate-ip', clients.west))).toBe('11');
    expect(await redis.get(limiterKey('rate-ip', clients.east))).toBe('1');

    console.log(`topology: set-up ${((setUp - started) / 1000).toFixed(1)} s, call and checks ${((Date.now() - setUp) / 1000).toFixed(1)} s`);
  } catch (error) {
    // What the servers said, for a failure that only shows in CI.
    for (const [name, text] of logs) await test.info().attach(name, { body: text(), contentType: 'text/plain' });
    throw error;
  } finally {
    for (const participant of open) await participant.context.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  }
});
