#!/usr/bin/env node
// `npm run bench:large-room`: a meeting of up to N = 50 (issues 20 and 38), on this machine.
// Lightweight Node participants (bench/large-room/crowd.ts: libdatachannel, the app's own
// signaling, key exchange and frame format, Opus audio, no video) plus BROWSERS (default 2) real
// Chromium participants. MODE=mesh (default) pins the browsers to the mesh (?media=mesh);
// MODE=sfu pins them to the SFU (?media=sfu) and the Node participants publish their audio to
// the meeting's Janus under their sender key and subscribe to the browsers' feeds (node-sfu.ts);
// the app runs with the Janus the e2e server starts (tests/e2e/support/serve.mjs, SFU_URLS). The
// room grows in SIZES steps (default 5,10,20,30; above 30 the bench raises the server's seat limit
// through the admin API of a server without billing); at each step the last browser leaves,
// the Node participants are added up to size − 1, and that browser joins again as the size-th
// participant. Printed per step:
// - join: the browser's trusted click on "Join now" → audio decoded and decrypted from every
//   other participant (its page clock, polled every 500 ms); the last Node participant's join
//   call → its frames opening in every staying browser; and → its side settled (its connections
//   up, opening the staying browsers' audio);
// - on the mesh, connected pairs out of N(N−1)/2; through the SFU, Node participants publishing
//   and subscribed; in each browser, from how many peers audio decodes (totalSamplesReceived and
//   frames decrypted growing over the window) and decrypt failures (browsers and Node participants);
// - CPU over STEADY_S seconds (default 15), in cores: each browser's process tree, the Node
//   participants' process, the app server, Janus (and Janus per participant); the load average;
// - each browser's uplink (audio and video) and downlink kbit/s, camera bitrate cap (RTCRtpSender
//   encodings maxBitrate; on the mesh against the quality policy, lib/meeting/client/media/encoding-policy.ts),
//   camera kbit/s per connection and the height sent; the Node participants' audio uplink; through
//   the SFU, what Janus sends out (the sum of what everyone receives from it).
// - through the SFU, the call's messages (issue 46): over the steady window each Node participant
//   sends a chat to everyone through Janus's data channels every CHAT_EVERY_S seconds (default 5;
//   0: none), sealed under its sender key by the app's own SfuData (node-messages.ts); printed are
//   the SFU messages the Node participants sent, those each browser opened and dropped (by reason)
//   and the chats it shows, and each browser's links to other participants (none above
//   LINKS_UP_TO participants: crowd-policy.ts);
// - the signaling a join and a leave cost: the signal envelopes the browsers posted (the joiner
//   until it hears everyone and the Node side settled; the staying ones meanwhile), those the Node
//   participants posted and the signals their streams brought them, and the Node participants'
//   sender keys (boxes, ratchets, fresh keys); the leave is the joiner's at the end of each step.
// NODE_AUDIO=all makes Node participants send audio to (mesh) or receive it from (SFU) each other
// as well (default: only the browsers, whose decoding is what is checked; Node-to-Node audio only
// loads this machine). SPEAKERS=k: only the first k Node participants talk, the others send
// silence as Opus DTX does (a frame every 400 ms), as in a real meeting (default: all talk).
// OPEN_EVERY=k (default 10): through the SFU a Node participant checks and opens one audio frame
// in k of each browser's (bench/large-room/node-sfu.ts says why), and takes no browser's video.
// CAMERA=WxH (default 640x360) is the browsers' camera. Asserts nothing; stops if a step never
// connects. Progress on stderr, the table on stdout.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { generateRoomSecret, fragmentForSecret, encodeRoomSecret } from '../../lib/meeting/e2ee/keys.ts';
import { launchChromium } from '../../tests/support/chromium.mjs';
import { demoMeetingId, descendants, startApp, waitForHealth } from '../lib/app-server.mjs';
import { progress, sleep } from '../lib/time.mjs';
import { startCrowd } from './crowd-process.mjs';
import { audioGrowth, evaluateWithin, uplinkFigures, waitForAudioFromAll, waitForSenderInBrowsers } from './measure.mjs';
import { dropsText, messageFigures } from './crowd-policy.ts';
import { audioByPeer, cameraSize, messagesInPage, signalsSent, uplink, watchPage } from './page-probes.mjs';
import { childrenOf, treeCpuSeconds } from './proc.mjs';
import { raiseSeatLimit } from './seats.mjs';

const port = Number(process.env.BENCH_PORT ?? 3610);
const mode = process.env.MODE === 'sfu' ? 'sfu' : 'mesh';
const sizes = (process.env.SIZES ?? '5,10,20,30').split(',').map(Number);
const browserCount = Number(process.env.BROWSERS ?? 2);
const steadySeconds = Number(process.env.STEADY_S ?? 15);
const audioTo = process.env.NODE_AUDIO === 'all' ? 'all' : 'browsers';
const speakers = process.env.SPEAKERS ? Number(process.env.SPEAKERS) : null;
const camera = (process.env.CAMERA ?? '640x360').split('x').map(Number);
const chatEverySeconds = mode === 'sfu' ? Number(process.env.CHAT_EVERY_S ?? 5) : 0;
const baseURL = `http://localhost:${port}`;
const MAX_SIZE = 50;
process.env.E2E_PORT = String(port);
if (sizes.some((size, i) => !Number.isInteger(size) || size <= browserCount || size > MAX_SIZE || (i > 0 && size <= sizes[i - 1])))
  throw new Error(`SIZES must grow, each above BROWSERS (${browserCount}) and at most ${MAX_SIZE}: ${sizes.join(',')}`);
// Janus (started by serve.mjs on E2E_PORT + 300) gets a UDP port per connection, two per
// participant through the SFU: the whole hundred above its base (its TCP ports are other ports).
const janusBase = port + 300;
const seatsNeeded = Math.max(...sizes);

/** A Chromium of its own per browser participant, so each one's CPU is its own process tree. */
async function launchBrowser() {
  const before = new Set(childrenOf(process.pid));
  const browser = await launchChromium();
  const pid = childrenOf(process.pid).find((child) => !before.has(child) && readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('chrom'));
  return { browser, pid, page: null, context: null };
}

/** Opens the meeting link with its key and clicks "Join now" (a trusted click). */
async function joinFromBrowser(participant, meetingId, fragment, name) {
  const context = await participant.browser.newContext({ baseURL });
  await context.addInitScript(watchPage);
  await context.addInitScript(cameraSize, camera);
  await context.grantPermissions(['camera', 'microphone'], { origin: baseURL });
  const page = await context.newPage();
  await page.goto(`/now/${meetingId}?media=${mode}${fragment}`);
  await page.getByLabel('Your name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Join now' }).click();
  participant.context = context;
  participant.page = page;
}

async function leaveFromBrowser(participant) {
  await participant.context?.close();
  participant.context = participant.page = null;
}

/** What a join or a leave cost the Node participants' sender keys, between two crowd summaries. */
const keyCost = (before, after) =>
  `${after.senderKeyBoxes - before.senderKeyBoxes} boxes, ${after.ratchets - before.ratchets} ratchets, ${after.freshKeys - before.freshKeys} fresh keys`;

/** The Node participants' signaling between two crowd summaries: envelopes posted (signals received). */
const signalCost = (before, after) => `${after.signalEnvelopes - before.signalEnvelopes} (${after.signalEvents - before.signalEvents})`;

/** Signal envelopes these browsers' pages posted so far, summed. */
async function browserSignals(participants) {
  const counts = await Promise.all(participants.map((p) => evaluateWithin(p.page, signalsSent)));
  return counts.reduce((sum, count) => sum + count.envelopes, 0);
}

/** The Node participants' message drops between two summaries, as messageFigures counts a browser's. */
function messageDrops(before, after) {
  const at = (counts) => ({ sfu: { ...counts, hearing: [] }, chats: 0, links: 0, linksConnected: 0, connections: 0 });
  return messageFigures(at(before), at(after));
}

/** The Janus serve.mjs started for the app (its child), for its CPU. */
function janusPid(serverPid) {
  return descendants(serverPid).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0].endsWith('janus')) ?? null;
}

async function main() {
  // REUSE_SERVER=1: the app already runs on BENCH_PORT (SERVER_PID: its process, for its CPU; JANUS_PID: Janus's).
  const reuse = process.env.REUSE_SERVER === '1';
  const healthTimeoutMs = 400_000;
  if (reuse) await waitForHealth(baseURL, Date.now() + healthTimeoutMs);
  const env = { E2E_JANUS_RTP_PORTS: `${janusBase}-${janusBase + 99}`, ...(seatsNeeded > 30 && { BILLING: 'off' }) };
  const server = reuse ? null : await startApp(port, { healthTimeoutMs, env });
  const crowd = startCrowd();
  const browsers = [];
  try {
    const meetingId = reuse ? await demoMeetingId() : server.meetingId;
    const serverPid = reuse ? Number(process.env.SERVER_PID ?? 0) : server.pid;
    const janus = reuse ? Number(process.env.JANUS_PID ?? 0) || null : janusPid(serverPid);
    if (seatsNeeded > 30) await raiseSeatLimit(baseURL, seatsNeeded);
    // The full link: every participant holds the key, as someone who was sent the link with #k.
    const secret = generateRoomSecret();
    const fragment = fragmentForSecret(secret);
    await crowd.call({ cmd: 'init', baseURL, meetingId, secret: encodeRoomSecret(secret), audioTo, media: mode, speakers });
    for (let i = 0; i < browserCount; i += 1) browsers.push(await launchBrowser());
    const staying = browsers.slice(0, -1);
    const joiner = browsers.at(-1);
    for (const [i, participant] of staying.entries()) await joinFromBrowser(participant, meetingId, fragment, `Browser ${i + 1}`);
    const loadBefore = os.loadavg()[0];
    const rows = [];
    let nodes = 0;
    const cpuNow = () => ({
      browsers: browsers.map((b) => treeCpuSeconds(b.pid)),
      crowd: treeCpuSeconds(crowd.child.pid),
      server: serverPid ? treeCpuSeconds(serverPid) - (janus ? treeCpuSeconds(janus) : 0) : 0,
      janus: janus ? treeCpuSeconds(janus) : 0,
      at: Date.now(),
    });
    for (const size of sizes) {
      try {
        await sleep(1500);
        const added = await crowd.call({ cmd: 'add', count: size - browserCount - nodes });
        nodes = added.total;
        progress(`N=${size}: ${nodes} Node participants joined; waiting for them to settle`);
        // Everyone but the joiner connected, Node participants opening the staying browsers' audio;
        // meanwhile, when the staying browsers open the last Node participant's frames.
        const [before, lastInBrowsers] = await Promise.all([
          crowd.call({ cmd: 'settle', participants: size - 1, browsers: staying.length, timeoutMs: 180_000 }),
          added.lastId
            ? waitForSenderInBrowsers(
                staying.map((b) => b.page),
                added.lastId,
                added.lastJoinAt,
                180_000,
              )
            : null,
        ]);
        if (!before.settled) {
          // Where the room stops forming on this machine: say so in the table and stop growing.
          const links = before.behind.flatMap((peer) => peer.notConnected);
          const sfu = before.behind.map((peer) => JSON.stringify(peer.sfu)).slice(0, 3);
          progress(
            `N=${size}: the room of ${size - 1} did not form in 180 s; links not connected (seen from Node participants): ${links.join(', ')}; SFU ${sfu.join(' ')}`,
          );
          rows.push({
            N: size,
            'pairs connected': `room of ${size - 1} not formed: ${before.behind.length} Node participants behind after 180 s`,
            load: os.loadavg()[0].toFixed(1),
          });
          break;
        }
        for (const participant of staying) await waitForAudioFromAll(participant.page, size - 2, 120_000);
        progress(`N=${size}: ${size - 1} connected; the last browser joins`);
        const keysBefore = await crowd.call({ cmd: 'summary' });
        const stayingSignals0 = await browserSignals(staying);
        await joinFromBrowser(joiner, meetingId, fragment, `Browser ${browserCount}`);
        const join = await waitForAudioFromAll(joiner.page, size - 1, 180_000);
        const settled = await crowd.call({ cmd: 'settle', participants: size, browsers: browserCount, timeoutMs: 120_000 });
        const keysAfter = await crowd.call({ cmd: 'summary' });
        // What the browser's join cost the Node participants' sender keys (the browsers' own are not counted).
        const joinKeys = keyCost(keysBefore, keysAfter);
        const joinSignals = `${(await browserSignals(browsers)) - stayingSignals0} | ${signalCost(keysBefore, keysAfter)}`;
        progress(`N=${size}: the join cost the ${nodes} Node participants ${joinKeys}`);
        progress(`N=${size}: joined in ${join.ms} ms (probe ${join.probe ? 'on' : 'missing'}); Node side ${settled.settled ? 'settled' : 'NOT settled'}`);
        // Verified / opened / decoding peers per poll: where the join's time goes.
        progress(`N=${size}: join timeline ${join.timeline}; requests ${JSON.stringify(join.requests)}`);
        await sleep(3000); // bandwidth estimates and the policy's setParameters settle
        const pages = browsers.map((b) => b.page);
        const audio0 = await Promise.all(pages.map((page) => evaluateWithin(page, audioByPeer)));
        const up0 = await Promise.all(pages.map((page) => evaluateWithin(page, uplink)));
        const messages0 = await Promise.all(pages.map((page) => evaluateWithin(page, messagesInPage)));
        const crowd0 = await crowd.call({ cmd: 'summary' });
        const cpu0 = cpuNow();
        if (chatEverySeconds > 0) await crowd.call({ cmd: 'chat', everyMs: chatEverySeconds * 1000 });
        await sleep(steadySeconds * 1000);
        const cpu1 = cpuNow();
        await crowd.call({ cmd: 'chat', everyMs: 0 });
        const load = os.loadavg()[0];
        const crowd1 = await crowd.call({ cmd: 'summary' });
        const audio1 = await Promise.all(pages.map((page) => evaluateWithin(page, audioByPeer)));
        const up1 = await Promise.all(pages.map((page) => evaluateWithin(page, uplink)));
        // The last chats on their way (sealed, through Janus, opened) before the messages are read.
        await sleep(2000);
        const messages1 = await Promise.all(pages.map((page) => evaluateWithin(page, messagesInPage)));
        const crowd2 = await crowd.call({ cmd: 'summary' });
        const inPages = messages1.map((after, i) => messageFigures(messages0[i], after));
        const seconds = (cpu1.at - cpu0.at) / 1000;
        const cores = (a, b) => ((b - a) / seconds).toFixed(2);
        const kbps = (a, b) => Math.round(((b - a) * 8) / seconds / 1000);
        const growth = audio1.map((after, i) => audioGrowth(audio0[i], after));
        const links = up1.map((u, i) => uplinkFigures(up0[i], u, size, mode === 'sfu'));
        const browserLinks = growth.reduce((sum, g) => sum + g.connected, 0);
        const janusOut = links.reduce((sum, l) => sum + l.down, 0) + kbps(crowd0.sfuReceivedBytes, crowd1.sfuReceivedBytes);
        const janusPackets = links.reduce((sum, l) => sum + l.packetsIn, 0) + Math.round((crowd1.sfuReceivedPackets - crowd0.sfuReceivedPackets) / seconds);
        const row = {
          N: size,
          mode,
          'browser join → audio from all ms': join.ms,
          'last Node join → its audio in browsers ms': lastInBrowsers ?? 'never',
          'last Node join → settled ms': before.lastReadyMs === null ? '-' : Math.round(before.lastReadyMs),
          ...(mode === 'mesh'
            ? { 'pairs connected': `${(crowd1.connectedLinks + browserLinks) / 2}/${(size * (size - 1)) / 2}`, 'Node links remade': crowd1.relinks }
            : { 'Node publishing/subscribed': `${crowd1.sfuPublishing}/${crowd1.sfuSubscribed} of ${nodes}` }),
          'browsers: audio decoding from': growth.map((g) => `${g.decoding}/${size - 1}${g.streams === null ? '' : ` (${g.streams} streams)`}`).join(' '),
          'Node sender keys for the join': joinKeys,
          'signals for the join: browsers sent | Node participants sent (received)': joinSignals,
          'decrypt failures browsers | Node': `${growth.map((g) => g.failed).join(' ')} | ${crowd1.decryptFailures - crowd0.decryptFailures}`,
          'Node frames opened': mode === 'sfu' ? crowd1.sfuOpened - crowd0.sfuOpened : '-',
          'browsers: links to participants connected/held (RTCPeerConnections open)': messages1
            .map((m) => `${m.linksConnected}/${m.links} (${m.connections})`)
            .join(' '),
          'Node links connected': crowd1.connectedLinks,
          ...(mode === 'sfu' && {
            'Node chats sent (SFU messages sent)': `${crowd2.messages.chatsSent - crowd0.messages.chatsSent} (${crowd2.messages.sent - crowd0.messages.sent})`,
            'browsers: SFU messages opened': inPages.map((f) => f.opened).join(' '),
            'browsers: chats shown': inPages.map((f) => f.chats).join(' '),
            'browsers: SFU messages dropped': inPages.map(dropsText).join(' | '),
            'browsers: heard through the SFU by': inPages.map((f) => `${f.hearing}/${size - 1}`).join(' '),
            'Node SFU messages opened, dropped': `${crowd2.messages.opened - crowd0.messages.opened}, ${dropsText(messageDrops(crowd0.messages, crowd2.messages))}`,
            'Node heard by (sum over Node participants)': crowd2.messages.hearing,
          }),
          'browser CPU cores': browsers.map((_, i) => cores(cpu0.browsers[i], cpu1.browsers[i])).join(' '),
          'Node peers CPU cores': cores(cpu0.crowd, cpu1.crowd),
          'server CPU cores': serverPid ? cores(cpu0.server, cpu1.server) : '-',
          'Janus CPU cores': janus ? cores(cpu0.janus, cpu1.janus) : '-',
          'Janus CPU per participant': janus ? ((cpu1.janus - cpu0.janus) / seconds / size).toFixed(4) : '-',
          'Janus out kbit/s': mode === 'sfu' ? janusOut : '-',
          'Janus out packets/s': mode === 'sfu' ? janusPackets : '-',
          'Janus CPU per 1000 packets/s out': mode === 'sfu' && janus ? (((cpu1.janus - cpu0.janus) / seconds / janusPackets) * 1000).toFixed(3) : '-',
          'browser uplink kbit/s audio+video': links.map((l) => `${l.audio}+${l.video}`).join(' '),
          'browser downlink kbit/s': links.map((l) => l.down).join(' '),
          'camera cap kbit/s': links.map((l) => l.cap).join(' | '),
          'camera kbit/s per connection': links.map((l) => l.cameraPerConnection).join(' '),
          'height sent': links.map((l) => l.height).join(' '),
          'Node audio kbit/s per stream': Math.round(((crowd1.sentBytes - crowd0.sentBytes) * 8) / seconds / 1000 / (crowd1.sentStreams || 1)),
          load: load.toFixed(1),
        };
        // The joiner leaves: what that costs (the Node participants' fresh keys, for those who stay, and the signaling).
        const [leaveBefore, leaveSignals0] = [await crowd.call({ cmd: 'summary' }), await browserSignals(staying)];
        await leaveFromBrowser(joiner);
        await sleep(3000);
        const leaveAfter = await crowd.call({ cmd: 'summary' });
        row['Node sender keys for the leave'] = keyCost(leaveBefore, leaveAfter);
        row['signals for the leave: browsers sent | Node participants sent (received)'] =
          `${(await browserSignals(staying)) - leaveSignals0} | ${signalCost(leaveBefore, leaveAfter)}`;
        rows.push(row);
        progress(`N=${size}: ${JSON.stringify(row)}`);
      } catch (error) {
        // A step that did not complete is a figure too: say where, and stop growing.
        progress(`N=${size}: ${error.message}`);
        const detail = await crowd.call({ cmd: 'summary' }).catch(() => null);
        progress(`Node participants: ${JSON.stringify(detail?.perPeer)}`);
        rows.push({ N: size, 'pairs connected': `step failed: ${error.message.slice(0, 120)}`, load: os.loadavg()[0].toFixed(1) });
        break;
      }
    }
    const machine = `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, load average ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`;
    console.log(
      `\nLarge room, ${mode} (${machine}, ${new Date().toISOString().slice(0, 10)}): ${browserCount} Chromium + Node participants, camera ${camera.join('x')}, Node audio to ${audioTo}, ${speakers === null ? 'every Node participant talking' : `${speakers} Node participants talking, the others silent (DTX)`}, ${steadySeconds} s per step`,
    );
    // One column per size: the figures are many.
    const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((key) => key !== 'N');
    console.table(Object.fromEntries(keys.map((key) => [key, Object.fromEntries(rows.map((row) => [`N=${row.N}`, row[key] ?? '']))])));
  } finally {
    for (const participant of browsers) await participant.browser.close().catch(() => undefined);
    await crowd.call({ cmd: 'leave-all' }).catch(() => undefined);
    if (crowd.child.connected) crowd.child.disconnect();
    await server?.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
