#!/usr/bin/env node
// `npm run bench:file-transfer`: how fast a file goes from one participant to another in a
// meeting (docs/meetings.md "Files"), on loopback: two Chromium participants of one call, RUNS
// transfers of SIZE_MB (random bytes made in the sender's page), each accepted by the receiver
// through its button. Prints, per run and as medians: the receiver's wire time (first chunk →
// every chunk opened and the SHA-256 checked) in MB/s, and the whole exchange (offer sent →
// the sender told "delivered"), which adds the sender's read and hash and the answer's trip.
// Both participants share this machine's cores, so the figure is a floor for two machines.
// Asserts nothing.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { launchChromium } from '../tests/support/chromium.mjs';
import { startApp } from './lib/app-server.mjs';
import { percentile } from './lib/stats.mjs';
import { progress, sleep } from './lib/time.mjs';

const port = Number(process.env.BENCH_PORT ?? 3620);
const runs = Number(process.env.RUNS ?? 5);
const sizeMB = Number(process.env.SIZE_MB ?? 50);
const MB = 1024 * 1024;

async function join(browser, baseURL, meetingId, name, fragment = '') {
  const context = await browser.newContext({ baseURL, permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  await page.goto(`/now/${meetingId}${fragment}`);
  await page.getByLabel('Your name', { exact: true }).fill(name);
  await page.getByRole('button', { name: /^(Join now|Ask to join)$/ }).click();
  await page.waitForFunction(() => window.enclaveProbe?.getState().peers.some((peer) => peer.keys === 'verified'), null, { timeout: 60_000 }).catch(() => {});
  return { context, page };
}

/** Polls until the sender's transfer of `name` is done (the receiver checked the SHA-256). */
async function delivered(page, name) {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(20)) {
    const all = await page.evaluate(() => window.enclaveProbe.fileTransfers());
    const transfer = all.find((t) => t.name === name);
    if (transfer?.status === 'done') return;
    if (transfer && transfer.status !== 'active' && transfer.status !== 'waiting') throw new Error(`${name}: ${transfer.status} ${transfer.problem}`);
  }
  throw new Error(`${name}: not delivered in 120 s`);
}

async function main() {
  const app = await startApp(port);
  const browser = await launchChromium();
  const wire = [];
  const whole = [];
  try {
    const sender = await join(browser, app.baseURL, app.meetingId, 'Sender', `#k=${randomBytes(32).toString('base64url')}`);
    const receiver = await join(browser, app.baseURL, app.meetingId, 'Receiver');
    for (const page of [sender.page, receiver.page])
      await page.waitForFunction(() => window.enclaveProbe?.getState().peers.some((peer) => peer.keys === 'verified'), null, { timeout: 60_000 });
    const receiverId = await receiver.page.evaluate(() => window.enclaveProbe.getState().self.id);
    for (let run = 1; run <= runs; run += 1) {
      const name = `bench-${run}.bin`;
      const offered = Date.now();
      const sent = sender.page.evaluate(([file, size, to]) => window.enclaveProbe.sendRandomFile(file, size, to), [name, sizeMB * MB, receiverId]);
      await receiver.page.getByRole('button', { name: `Accept ${name}` }).click({ timeout: 60_000 });
      const expected = await sent;
      await delivered(sender.page, name);
      const wholeSeconds = (Date.now() - offered) / 1000;
      const transfer = (await receiver.page.evaluate(() => window.enclaveProbe.fileTransfers())).find((t) => t.name === name);
      const digest = await receiver.page.evaluate((key) => window.enclaveProbe.receivedSha256(key), transfer.key);
      if (digest !== expected) throw new Error(`run ${run}: SHA-256 differs`);
      const seconds = (transfer.finishedAt - transfer.firstByteAt) / 1000;
      wire.push(sizeMB / seconds);
      whole.push(sizeMB / wholeSeconds);
      progress(
        `run ${run}/${runs}: ${sizeMB} MB, wire ${(sizeMB / seconds).toFixed(1)} MB/s (${seconds.toFixed(2)} s), offer → delivered ${(sizeMB / wholeSeconds).toFixed(1)} MB/s (${wholeSeconds.toFixed(2)} s)`,
      );
      // Free the receiver's copy before the next run.
      await receiver.page.getByRole('button', { name: `Dismiss ${name}` }).click();
      await sender.page.getByRole('button', { name: `Dismiss ${name}` }).click();
    }
  } finally {
    await browser.close().catch(() => {});
    await app.stop();
  }
  const fixed = (value) => value.toFixed(1);
  console.log(
    `\nFile transfer, Chromium → Chromium on loopback (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''})`,
  );
  console.log(`${runs} × ${sizeMB} MB, SHA-256 equal every time`);
  console.log(`wire (first chunk → checked): p50 ${fixed(percentile(wire, 50))} MB/s, min ${fixed(Math.min(...wire))}, max ${fixed(Math.max(...wire))}`);
  console.log(`offer → delivered (read, hash, accept click, transfer, check, answer): p50 ${fixed(percentile(whole, 50))} MB/s`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
