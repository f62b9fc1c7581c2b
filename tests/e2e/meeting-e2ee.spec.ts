// The proofs of end-to-end encryption (issue 6, docs/e2ee-crypto.md "Testing in headless Chromium"), in
// real Chromium: frames decrypt on every receiver, another key never connects, what leaves a
// sender is ciphertext, no key means no frame, a relay that tampers is refused, and the link's
// secret never reaches the server.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  closedAfterEach,
  enterLobby,
  expectInCall,
  expectMediaFromPeers,
  fragment,
  joinMeeting,
  newParticipantContext,
  newSecret,
  peerStats,
  selfId,
} from './support/meeting';
import { cryptoStats, encryptionState } from './support/probe-readers';
import { messages } from './support/messages';
import { logIn, seededAccount } from './support/session';
import { storedFiles } from './support/stored-data';

const en = messages('en');
test.describe.configure({ timeout: 150_000 });

const open = closedAfterEach();

const peerKeys = (page: Page) => page.evaluate(() => window.enclaveProbe?.getState().peers.map((p) => p.keys) ?? []);

/** Every peer's frames are decrypted on this page, and the counts keep rising. */
async function expectDecryptingFrom(page: Page, peers: number) {
  const before = await cryptoStats(page);
  await expect
    .poll(
      async () => {
        const now = await cryptoStats(page);
        return Object.entries(now).filter(([id, s]) => s.received.decrypted > (before[id]?.received.decrypted ?? 0) + 20).length;
      },
      { timeout: 20_000, intervals: [500] },
    )
    .toBe(peers);
  const after = await cryptoStats(page);
  for (const stats of Object.values(after)) {
    expect(stats.sent.encrypted).toBeGreaterThan(0);
    expect(stats.received.failed.auth).toBe(0);
  }
}

/** Shannon entropy in bits per byte. */
function entropy(bytes: number[]): number {
  const counts = new Array<number>(256).fill(0);
  for (const byte of bytes) counts[byte]! += 1;
  return counts.filter(Boolean).reduce((sum, count) => sum - (count / bytes.length) * Math.log2(count / bytes.length), 0);
}

test('two and three participants decode each other with every receiver decrypting; a key comes by handoff when the link has none', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const a = await joinMeeting(browser, baseURL!, meetingId, { name: 'Ada', fragment: fragment() });
  open.push(a);
  // The secret was taken out of the address bar.
  expect(new URL(a.page.url()).hash).toBe('');
  const b = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob' });
  open.push(b);
  await expectMediaFromPeers(a.page, 1);
  await expectMediaFromPeers(b.page, 1);
  await expectDecryptingFrom(a.page, 1);
  await expectDecryptingFrom(b.page, 1);
  expect(await encryptionState(a.page)).toEqual({ status: 'on', source: 'link', epoch: 0, password: false });
  expect(await encryptionState(b.page)).toEqual({ status: 'on', source: 'handoff', epoch: 0, password: false });
  // Both sides of the handover see the same code.
  const [adaId, bobId] = [await selfId(a.page), await selfId(b.page)];
  const handedBy = await b.page.evaluate((id) => window.enclaveProbe!.handoffCode(id)?.digits, adaId);
  expect(handedBy).toMatch(/^\d/);
  expect(await a.page.evaluate((id) => window.enclaveProbe!.handoffCode(id)?.digits, bobId)).toBe(handedBy);

  const c = await joinMeeting(browser, baseURL!, meetingId, { name: 'Cy' });
  open.push(c);
  for (const page of [a.page, b.page, c.page]) {
    await expectMediaFromPeers(page, 2, 45_000);
    await expectDecryptingFrom(page, 2);
    await expect(page.getByTestId('encryption-indicator')).toHaveAttribute('data-status', 'on');
  }

  // Safety codes: Ada and Cy see the same code for each other.
  const codeOf = async (viewer: Page, subject: Page) => {
    const id = await selfId(subject);
    return viewer.evaluate(async (peer) => (await window.enclaveProbe!.safetyCode(peer))?.digits, id);
  };
  const [adaSeesCy, cySeesAda] = await Promise.all([codeOf(a.page, c.page), codeOf(c.page, a.page)]);
  expect(adaSeesCy).toMatch(/^\d{5}( \d{5}){5}$/);
  expect(adaSeesCy).toBe(cySeesAda);
  await a.page.getByTestId('encryption-indicator').click();
  await expect(a.page.getByRole('dialog', { name: en.Meeting.e2ee.title }).getByTestId('safety-digits')).toHaveCount(2);
});

test('a participant whose link holds another key is never connected under it: told so, it gets the meeting\u2019s key as a link without one would (issue 48)', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const host = await joinMeeting(browser, baseURL!, meetingId, { name: 'Host', fragment: fragment() });
  open.push(host);
  const other = await joinMeeting(browser, baseURL!, meetingId, { name: 'Olga', fragment: fragment() });
  open.push(other);
  await expect(other.page.getByTestId('stale-link')).toHaveText(en.Meeting.e2ee.staleLink, { timeout: 20_000 });
  await expectMediaFromPeers(other.page, 1, 45_000);
  await expectDecryptingFrom(other.page, 1);
  await expectDecryptingFrom(host.page, 1);
  expect(await encryptionState(other.page)).toEqual({ status: 'on', source: 'handoff', epoch: 0, password: false, staleLink: true });
  // The host kept its key and is not told "wrong key" because a newcomer's link was another's.
  expect(await encryptionState(host.page)).toEqual({ status: 'on', source: 'link', epoch: 0, password: false });
  expect(await peerKeys(host.page)).toEqual(['verified']);
});

test('what leaves a sender is ciphertext; without keys a sender emits no frame', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const a = await joinMeeting(browser, baseURL!, meetingId, { name: 'Ada' });
  const b = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob' });
  open.push(a, b);
  await expectMediaFromPeers(b.page, 1);

  // A recording transform in the middle: after the clear prefix, only high-entropy bytes that
  // never equal what the encoder produced.
  const samples = await a.page.evaluate(() => window.enclaveProbe!.sampleFrames(12));
  expect(samples).toHaveLength(12);
  for (const { plain, sealed } of samples) {
    expect(sealed).not.toEqual(plain.slice(0, sealed.length));
    expect(Buffer.from(sealed).includes(Buffer.from(plain.slice(16, 48)))).toBe(false);
  }
  expect(entropy(samples.flatMap((s) => s.sealed))).toBeGreaterThan(7.8);

  // Keys withheld: Ada's senders drop every frame instead of sending it in clear.
  const bobId = await selfId(b.page);
  await a.page.evaluate(() => window.enclaveProbe!.withholdKeys(true));
  await a.page.waitForTimeout(500);
  const [sentBefore, receivedBefore] = [(await cryptoStats(a.page))[bobId]!.sent, Object.values(await cryptoStats(b.page))[0]!.received];
  await a.page.waitForTimeout(3000);
  const [sentAfter, receivedAfter] = [(await cryptoStats(a.page))[bobId]!.sent, Object.values(await cryptoStats(b.page))[0]!.received];
  expect(sentAfter.encrypted).toBe(sentBefore.encrypted);
  expect(sentAfter.withheld).toBeGreaterThan(sentBefore.withheld + 50);
  expect(receivedAfter.decrypted).toBe(receivedBefore.decrypted);
  // Keys back: media flows again.
  await a.page.evaluate(() => window.enclaveProbe!.withholdKeys(false));
  await expectDecryptingFrom(b.page, 1);
});

test('a relay that rewrites a signed fingerprint or an announced public key is detected and refused', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const rewrite = (change: (envelope: { k: string; [key: string]: unknown }) => void) => async (context: import('@playwright/test').BrowserContext) => {
    await context.route('**/api/meeting/*/signal', async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      // One envelope, or several for one peer that went up together (type "signals").
      const message = JSON.parse(request.postData() ?? '{}') as { envelope?: string; envelopes?: string[] };
      const rewritten = (text: string) => {
        const envelope = JSON.parse(text) as { k: string; [key: string]: unknown };
        change(envelope);
        return JSON.stringify(envelope);
      };
      if (message.envelope) return route.continue({ postData: JSON.stringify({ ...message, envelope: rewritten(message.envelope) }) });
      if (message.envelopes) return route.continue({ postData: JSON.stringify({ ...message, envelopes: message.envelopes.map(rewritten) }) });
      await route.continue();
    });
  };
  const otherFingerprint = `sha-256 ${Array.from({ length: 32 }, () => 'AB').join(':')}`;

  // The fingerprint inside a signed description: the signature no longer verifies.
  const host = await joinMeeting(browser, baseURL!, meetingId, { name: 'Host', fragment: fragment() });
  open.push(host);
  const victim = await joinMeeting(browser, baseURL!, meetingId, {
    name: 'Vic',
    prepare: rewrite((envelope) => {
      const signal = envelope.signal as { body?: { description?: { sdp?: string } } } | undefined;
      const description = signal?.body?.description;
      if (description?.sdp) description.sdp = description.sdp.replace(/a=fingerprint:[^\r\n]+/g, `a=fingerprint:${otherFingerprint}`);
    }),
  });
  open.push(victim);
  await expect.poll(() => peerKeys(host.page), { timeout: 20_000 }).toEqual(['tampered']);
  expect(Object.values(await peerStats(host.page)).every((s) => s.framesDecoded === 0)).toBe(true);
  await victim.context.close();

  // A public key in the announcement: its tag under the room secret no longer verifies.
  const swapped = await joinMeeting(browser, baseURL!, meetingId, {
    name: 'Sam',
    prepare: rewrite((envelope) => {
      const announcement = envelope.announcement as { ecdhKey: string } | undefined;
      if (envelope.k === 'hello' && announcement) announcement.ecdhKey = `${announcement.ecdhKey.slice(0, -4)}AAAA`;
    }),
  });
  open.push(swapped);
  await expect.poll(async () => (await peerKeys(host.page)).filter((k) => k !== 'tampered'), { timeout: 20_000 }).toEqual(['mismatch']);
  await host.page.waitForTimeout(2000);
  expect(Object.values(await peerStats(host.page)).every((s) => s.framesDecoded === 0)).toBe(true);
});

test('the fragment secret is never in a request, a header, a log line, the database or a mail', async ({ browser, baseURL }) => {
  const secret = newSecret();
  const seen: string[] = [];
  const capture = async (context: import('@playwright/test').BrowserContext) => {
    context.on('request', (request) => {
      seen.push(request.url(), JSON.stringify(request.headers()), request.postData() ?? '');
    });
  };
  const meetingId = seededAccount('demo').meetingId;
  const host = await joinMeeting(browser, baseURL!, meetingId, { name: 'Demo User', host: 'demo', fragment: fragment(secret), prepare: capture });
  const guest = await joinMeeting(browser, baseURL!, meetingId, { name: 'Gus', fragment: fragment(secret), prepare: capture });
  open.push(host, guest);
  await expectMediaFromPeers(guest.page, 1);
  // The in-call copy is the room's link without the key: it outlives every rekey and restart
  // (issue 48), and whoever opens it gets the key from a participant, never from the server.
  await host.page.getByRole('button', { name: en.Meeting.copyLink }).click();
  expect(await host.page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/now/${meetingId}`);
  await host.page.reload();
  await guest.page.waitForTimeout(1000);

  expect(seen.length).toBeGreaterThan(10);
  expect(seen.filter((text) => text.includes(secret))).toEqual([]);
  const mails = await (await fetch(`http://127.0.0.1:${process.env.MAIL_CATCHER_HTTP_PORT ?? Number(process.env.E2E_PORT ?? 3210) + 2}/messages`)).text();
  expect(mails.includes(secret)).toBe(false);
  // The server's log and every file of its database.
  const stored = storedFiles();
  expect(stored.some((file) => file.endsWith('server.log'))).toBe(true);
  for (const file of stored) expect(readFileSync(file).includes(secret), file).toBe(false);
});

test('a room password stays in the browser: set as a proof, remembered by its owner, mixed into the key, in no request, log, database file or mail', async ({
  browser,
  baseURL,
}) => {
  const password = `Pw-${randomBytes(12).toString('base64url')}`;
  const seen: string[] = [];
  const capture = async (context: import('@playwright/test').BrowserContext) => {
    context.on('request', (request) => {
      seen.push(request.url(), JSON.stringify(request.headers()), request.postData() ?? '');
    });
  };
  const R = en.Rooms;
  const ownerContext = await newParticipantContext(browser, baseURL!);
  await logIn(ownerContext, baseURL!, 'demo');
  await capture(ownerContext);
  const page = await ownerContext.newPage();
  open.push({ context: ownerContext, page, name: 'Demo User' });

  // The owner sets the password in the room form: the request carries a salt and a proof.
  await page.goto('/admin');
  await page.getByRole('button', { name: R.add }).click();
  const dialog = page.getByRole('dialog', { name: R.addTitle });
  const roomName = `Sealed ${Date.now().toString(36)}`;
  await dialog.getByLabel(R.name, { exact: true }).fill(roomName);
  await dialog.getByLabel(R.password, { exact: true }).fill(password);
  await dialog.getByRole('button', { name: en.Manage.save }).click();
  await expect(dialog).toBeHidden();
  const room = page.getByRole('list', { name: R.listLabel }).getByRole('listitem').filter({ hasText: roomName });
  const meetingId = (await room.getByRole('link').getAttribute('href'))!.split('/now/')[1]!;
  expect(seen.some((text) => text.includes('"passwordProof"'))).toBe(true);

  // Its browser remembers the password it set: the owner walks in without typing it.
  await page.goto(`/now/${meetingId}`);
  await expect(page.getByRole('button', { name: en.Meeting.joinNow })).toBeVisible();
  await expect(page.getByLabel(en.Meeting.meetingPassword, { exact: true })).toHaveCount(0);
  await enterLobby(page, { name: 'Demo User' });
  await expectInCall(page);

  // A guest types it; a wrong one is refused by the server, which saw only a proof.
  const guest = await joinMeeting(browser, baseURL!, meetingId, { name: 'Gus', password: 'not-the-password', expectInCall: false, prepare: capture });
  open.push(guest);
  await expect(guest.page.getByRole('main').getByRole('alert')).toHaveText(en.Errors.incorrect_password);
  await guest.page.getByLabel(en.Meeting.meetingPassword, { exact: true }).fill(password);
  await guest.page.getByRole('button', { name: en.Meeting.joinNow }).click();
  await expectInCall(guest.page);
  // Both derived the same key with the password mixed in, so frames decrypt both ways.
  await expectDecryptingFrom(guest.page, 1);
  await expectDecryptingFrom(page, 1);
  expect(await encryptionState(page)).toMatchObject({ status: 'on', password: true });
  expect(await encryptionState(guest.page)).toMatchObject({ status: 'on', password: true });

  // A kept password that no longer opens the room is forgotten, and the lobby asks for it.
  await page.evaluate((id) => {
    const key = `enclave.roomPassword.${id}`;
    localStorage.setItem(key, JSON.stringify({ ...JSON.parse(localStorage.getItem(key)!), stretched: 'A'.repeat(43) }));
  }, meetingId);
  await page.reload();
  await enterLobby(page, { name: 'Demo User' });
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(en.Errors.incorrect_password);
  await page.getByLabel(en.Meeting.meetingPassword, { exact: true }).fill(password);
  await page.getByRole('button', { name: en.Meeting.joinNow }).click();
  await expectInCall(page);
  await expectDecryptingFrom(page, 1);

  expect(seen.filter((text) => text.includes(password))).toEqual([]);
  const mails = await (await fetch(`http://127.0.0.1:${process.env.MAIL_CATCHER_HTTP_PORT ?? Number(process.env.E2E_PORT ?? 3210) + 2}/messages`)).text();
  expect(mails.includes(password)).toBe(false);
  for (const file of storedFiles()) expect(readFileSync(file).includes(password), file).toBe(false);
});

test('a removal moves everyone else to a new epoch within 3 s; the removed participant is refused', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const host = await joinMeeting(browser, baseURL!, meetingId, { name: 'Demo User', host: 'demo', fragment: fragment() });
  const bob = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob' });
  const cy = await joinMeeting(browser, baseURL!, meetingId, { name: 'Cy' });
  open.push(host, bob, cy);
  for (const page of [host.page, bob.page]) await expectMediaFromPeers(page, 2, 45_000);
  const cyId = await selfId(cy.page);
  const cyToken = await cy.page.evaluate(() => window.enclaveProbe!.token);

  const removedAt = Date.now();
  expect(await host.page.evaluate((id) => window.enclaveProbe!.hostAction('remove', id), cyId)).toBe(200);
  await Promise.all(
    [host.page, bob.page].map((page) => expect.poll(async () => (await encryptionState(page))?.epoch, { timeout: 3000, intervals: [100] }).toBe(1)),
  );
  expect(Date.now() - removedAt).toBeLessThan(3000);
  // Media keeps flowing between those who stayed, under the new keys.
  await expectDecryptingFrom(host.page, 1);
  await expectDecryptingFrom(bob.page, 1);

  // The removed participant is told, and its old token no longer works.
  await expect(cy.page.getByRole('heading', { name: en.Meeting.ended.removed })).toBeVisible();
  const status = await cy.page.evaluate(
    async ({ id, token }) =>
      (
        await fetch(`/api/meeting/${id}/signal`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'leave' }),
        })
      ).status,
    { id: meetingId, token: cyToken },
  );
  expect([401, 403]).toContain(status);
});

test('the script-transform path (RTCRtpScriptTransform) and the encoded-streams path decrypt each other', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const worker = await joinMeeting(browser, baseURL!, meetingId, { name: 'Wanda', fragment: `?frames=script${fragment()}` });
  const page = await joinMeeting(browser, baseURL!, meetingId, { name: 'Paul' });
  open.push(worker, page);
  await expectMediaFromPeers(worker.page, 1);
  await expectMediaFromPeers(page.page, 1);
  await expectDecryptingFrom(worker.page, 1);
  await expectDecryptingFrom(page.page, 1);
});

test('where newcomers ask to join, only the host who let them in hands over the key', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const host = await joinMeeting(browser, baseURL!, meetingId, { name: 'Demo User', host: 'demo', fragment: fragment() });
  const handoffsByBob: string[] = [];
  const bob = await joinMeeting(browser, baseURL!, meetingId, {
    name: 'Bob',
    prepare: async (context) => {
      context.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/signal') && (request.postData() ?? '').includes('\\"k\\":\\"handoff\\"')) {
          handoffsByBob.push(request.postData()!);
        }
      });
    },
  });
  open.push(host, bob);
  await expectMediaFromPeers(bob.page, 1);

  await host.page.getByRole('button', { name: en.Meeting.people, exact: true }).click();
  await host.page.getByRole('complementary').getByLabel(en.Meeting.lockMeeting).check();
  const late = await joinMeeting(browser, baseURL!, meetingId, { name: 'Late Larry', expectInCall: false });
  open.push(late);
  await expect(late.page.getByRole('heading', { name: en.Meeting.waitingTitle })).toBeVisible();
  await host.page.getByRole('complementary').getByRole('button', { name: en.Meeting.admit }).click();
  await expectMediaFromPeers(late.page, 2, 45_000);
  await expectDecryptingFrom(late.page, 2);
  expect(await encryptionState(late.page)).toMatchObject({ status: 'on', source: 'handoff' });
  // Bob holds the key too, but did not hand it to someone he did not let in.
  expect(handoffsByBob).toEqual([]);
});
