#!/usr/bin/env node
// `node bench/rollback-transform.mjs` (issue 20; never in `npm test`): does this Chromium still
// bypass a receiver's encoded transform after a rollback? Two RTCPeerConnections in one page, on
// loopback, with the three transceivers of lib/meeting/client/links/peer.ts and a transform on every
// sender and receiver that only counts frames. Once video flows, the first restarts ICE, and
// then the second one too unless MODE says otherwise:
// - glare: both restart at once; the polite one rolls its offer back (perfect negotiation);
// - polite, impolite: only that one restarts (what peer.ts now does).
// It prints, per snapshot, the polite side's video receiver transform count next to its
// decoder's framesReceived/framesDecoded. Measured with Chromium 156 (docs/reliability.md, "ICE
// restart after a dropped network"): after a glare the transform count stops while decoding
// goes on, with both frame paths; alone, every count keeps rising. FRAMES=streams|script,
// MODE=glare|polite|impolite|none, BENCH_PORT (3289, a blank page's origin). Asserts nothing.
import http from 'node:http';
import { launchChromium } from '../tests/support/chromium.mjs';

const framePath = process.env.FRAMES ?? 'streams';
const mode = process.env.MODE ?? 'glare';
const port = Number(process.env.BENCH_PORT ?? 3289);

/** Runs in the page: two linked connections, their frame counts and the polite side's video stats. */
async function experiment({ framePath, mode }) {
  // Its own sleep: this function runs in the page, where bench/lib is out of reach.
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const media = await navigator.mediaDevices.getUserMedia({ audio: true, video: { width: 320, height: 240 } });
  const counts = {};
  let tap;
  if (framePath === 'script') {
    const worker = new Worker(
      URL.createObjectURL(
        new Blob(
          [
            'const counts = {};' +
              'onrtctransform = ({ transformer }) => { const name = transformer.options.name; counts[name] = 0;' +
              ' transformer.readable.pipeThrough(new TransformStream({ transform(f, c) { counts[name] += 1; c.enqueue(f); } })).pipeTo(transformer.writable); };' +
              'onmessage = () => postMessage(counts);',
          ],
          { type: 'text/javascript' },
        ),
      ),
    );
    worker.onmessage = (event) => Object.assign(counts, event.data);
    setInterval(() => worker.postMessage(0), 200);
    tap = (name, endpoint) => (endpoint.transform = new RTCRtpScriptTransform(worker, { name }));
  } else {
    tap = (name, endpoint) => {
      const { readable, writable } = endpoint.createEncodedStreams();
      counts[name] = 0;
      readable
        .pipeThrough(
          new TransformStream({
            transform(frame, c) {
              counts[name] += 1;
              c.enqueue(frame);
            },
          }),
        )
        .pipeTo(writable);
    };
  }
  const events = [];
  // Perfect negotiation as in peer.ts; signals arrive 50 ms later, in order.
  function link(name, polite, tracks) {
    const pc = new RTCPeerConnection(framePath === 'streams' ? { encodedInsertableStreams: true } : {});
    const side = { pc, polite, makingOffer: false, ignoreOffer: false, transceivers: [], other: null, taken: new Set() };
    const send = (message) => setTimeout(() => side.other.signal(message), 50);
    pc.ontrack = ({ transceiver, receiver }) => {
      if (side.taken.has(receiver)) return;
      side.taken.add(receiver);
      tap(`${name}.receive${pc.getTransceivers().indexOf(transceiver)}`, receiver);
    };
    pc.onicecandidate = ({ candidate }) => send({ candidate });
    pc.onnegotiationneeded = async () => {
      if (!side.transceivers.length) return;
      try {
        side.makingOffer = true;
        await pc.setLocalDescription();
        send({ description: pc.localDescription.toJSON() });
      } finally {
        side.makingOffer = false;
      }
    };
    side.signal = async ({ description, candidate }) => {
      if (description) {
        const collision = description.type === 'offer' && (side.makingOffer || pc.signalingState !== 'stable');
        side.ignoreOffer = !polite && collision;
        if (side.ignoreOffer) return events.push(`${name} ignores a crossing offer`);
        if (collision) events.push(`${name} rolls its offer back`);
        await pc.setRemoteDescription(description);
        if (description.type !== 'offer') return;
        if (!side.transceivers.length) {
          side.transceivers = pc.getTransceivers().slice(0, 3);
          side.transceivers.forEach((t, i) => {
            tap(`${name}.send${i}`, t.sender);
            t.direction = 'sendrecv';
            void t.sender.replaceTrack(tracks[i]);
          });
        }
        await pc.setLocalDescription();
        send({ description: pc.localDescription.toJSON() });
      } else if (candidate !== undefined) {
        await pc.addIceCandidate(candidate ?? undefined).catch(() => {});
      }
    };
    return side;
  }
  const tracks = () => [media.getAudioTracks()[0].clone(), media.getVideoTracks()[0].clone(), null];
  const impolite = link('impolite', false, tracks());
  const polite = link('polite', true, tracks());
  impolite.other = polite;
  polite.other = impolite;
  impolite.transceivers = ['audio', 'video', 'video'].map((kind) => impolite.pc.addTransceiver(kind, { direction: 'sendrecv' }));
  const first = tracks();
  impolite.transceivers.forEach((t, i) => {
    tap(`impolite.send${i}`, t.sender);
    tap(`impolite.receive${i}`, t.receiver);
    impolite.taken.add(t.receiver);
    void t.sender.replaceTrack(first[i]);
  });
  const video = async (pc) => {
    let stats = null;
    const mid = pc.getTransceivers()[1].mid;
    (await pc.getStats()).forEach((s) => {
      if (s.type === 'inbound-rtp' && s.kind === 'video' && s.mid === mid) stats = { framesReceived: s.framesReceived, framesDecoded: s.framesDecoded };
    });
    return stats;
  };
  const snapshot = async (label) => ({
    label,
    receiverTransform: counts['polite.receive1'],
    senderTransform: counts['polite.send1'],
    decoder: await video(polite.pc),
  });
  await sleep(5000);
  const snapshots = [await snapshot('before the restart')];
  if (mode === 'glare' || mode === 'impolite') impolite.pc.restartIce();
  if (mode === 'glare' || mode === 'polite') polite.pc.restartIce();
  await sleep(4000);
  snapshots.push(await snapshot('4 s after'));
  await sleep(3000);
  snapshots.push(await snapshot('7 s after'));
  return { snapshots, events };
}

const server = http.createServer((_request, response) => response.end('<!doctype html><title>rollback</title>')).listen(port, '127.0.0.1');
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  // A secure context (localhost) for getUserMedia.
  await page.goto(`http://localhost:${port}/`);
  const { snapshots, events } = await page.evaluate(experiment, { framePath, mode });
  console.log(
    `${browser.version()}, frames through ${framePath === 'script' ? 'RTCRtpScriptTransform' : 'createEncodedStreams'}, restart: ${mode}; ${events.join('; ') || 'no offers crossed'}`,
  );
  console.log('| polite side, camera | receiver transform frames | decoder framesReceived / framesDecoded | sender transform frames |');
  console.log('| --- | --- | --- | --- |');
  for (const s of snapshots)
    console.log(`| ${s.label} | ${s.receiverTransform} | ${s.decoder?.framesReceived} / ${s.decoder?.framesDecoded} | ${s.senderTransform} |`);
} finally {
  await browser.close();
  server.close();
}
