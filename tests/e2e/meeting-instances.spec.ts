// Meetings across app instances (Redis fan-out) and through a TURN relay (coturn).
import { expect, test } from '@playwright/test';
import { closedAfterEach, expectMediaFromPeers, joinMeeting, peerStats } from './support/meeting';
import { createDatabase, extraPort, seed, startInstance, startTurn, tempDataDir } from './support/instances';

test.describe.configure({ timeout: 180_000 });

const open = closedAfterEach();

test('participants on two app instances sharing Redis meet each other', async ({ browser }) => {
  const database = await createDatabase();
  const env = { DATABASE_URL: database.url, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' };
  const data = tempDataDir();
  const instances = [];
  try {
    // Start one instance first: it migrates the new database before the seed writes to it.
    instances.push(await startInstance(extraPort(0), { ...env, DATA_DIR: data.dir }));
    const account = seed(env, `instances-${Date.now()}@enclave.local`);
    instances.push(await startInstance(extraPort(1), { ...env, DATA_DIR: data.dir }));

    const west = await joinMeeting(browser, instances[0]!.url, account.meetingId, { name: 'West' });
    const east = await joinMeeting(browser, instances[1]!.url, account.meetingId, { name: 'East' });
    open.push(west, east);
    await expect(west.page.getByRole('figure', { name: 'East', exact: true })).toBeVisible({ timeout: 20_000 });
    await expectMediaFromPeers(west.page, 1);
    await expectMediaFromPeers(east.page, 1);

    // Leaving on one instance is seen on the other.
    await east.page.getByRole('button', { name: 'Leave', exact: true }).click();
    await expect(west.page.getByRole('figure', { name: 'East', exact: true })).toHaveCount(0, { timeout: 15_000 });
  } finally {
    for (const participant of open) await participant.context.close().catch(() => undefined);
    open.length = 0;
    for (const instance of instances) await instance.stop();
    await database.drop();
    data.remove();
  }
});

test('with iceTransportPolicy "relay" media flows through a coturn relay on loopback', async ({ browser }) => {
  const secret = `turn-secret-${Date.now()}`;
  const turnPort = extraPort(10);
  const turn = await startTurn(turnPort, secret);
  const data = tempDataDir();
  const env = {
    DATA_DIR: data.dir,
    TURN_URLS: `turn:127.0.0.1:${turnPort}?transport=udp`,
    TURN_SECRET: secret,
    ICE_TRANSPORT_POLICY: 'relay',
  };
  let instance;
  try {
    const account = seed(env, 'turn@enclave.local');
    instance = await startInstance(extraPort(2), env);
    const a = await joinMeeting(browser, instance.url, account.meetingId, { name: 'Relay A' });
    const b = await joinMeeting(browser, instance.url, account.meetingId, { name: 'Relay B' });
    open.push(a, b);
    await expectMediaFromPeers(a.page, 1, 45_000);
    await expectMediaFromPeers(b.page, 1, 45_000);
    const stats = Object.values(await peerStats(a.page));
    expect(stats.map((s) => s.candidateType)).toEqual(['relay']);
  } finally {
    for (const participant of open) await participant.context.close().catch(() => undefined);
    open.length = 0;
    await instance?.stop();
    turn.stop();
    data.remove();
  }
});
