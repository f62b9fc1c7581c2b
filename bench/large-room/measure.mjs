// What the large-room benchmark reads from the browsers' pages between two moments (page-probes.mjs
// gives the raw counters): whether audio arrives from everyone, decrypt failures, uplink and
// downlink. The same figures on the mesh and through the SFU.
import { videoTarget } from '../../lib/meeting/client/media/encoding-policy.ts';
import { sleep } from '../lib/time.mjs';
import { audioByPeer, joinRequests } from './page-probes.mjs';

/** page.evaluate, or an error once `ms` pass: a starved page can stop answering altogether. */
export function evaluateWithin(page, fn, ms = 60_000, arg = undefined) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`the page did not answer within ${ms / 1000} s`)), ms)));
  return Promise.race([page.evaluate(fn, arg), timeout]).finally(() => clearTimeout(timer));
}

/** A peer whose audio this page hears: connected, samples decoded (per peer on the mesh), frames opened. */
const hears = (p) => p.connected && (p.samples === null || p.samples > 0) && (p.decrypted === null || p.decrypted > 0);
/** Through the SFU: received audio streams that decoded samples. */
const decodingStreams = (probe) => Object.values(probe.streams ?? {}).filter((samples) => samples > 0).length;

/** Until the page has audio decoded and decrypted from `others` peers; ms since its click on Join (polled every 200 ms). */
export async function waitForAudioFromAll(page, others, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = null;
  // Where the time goes: per poll, since the click, how many peers are verified, opened and
  // decoding; through the SFU also the audio streams received (s) and the frames that failed to open (f).
  const timeline = [];
  while (Date.now() < deadline) {
    last = await evaluateWithin(page, audioByPeer);
    const peers = Object.values(last.peers);
    const ready = peers.filter(hears);
    if (last.click !== null)
      timeline.push(
        `${((last.at - last.click) / 1000).toFixed(1)}s ${peers.filter((p) => p.keys === 'verified').length}v/${peers.filter((p) => p.decrypted > 0).length}o/${last.sfu ? `${decodingStreams(last)}d/${Object.keys(last.streams ?? {}).length}s/${peers.reduce((sum, p) => sum + (p.failed ?? 0), 0)}f` : `${ready.length}d`}`,
      );
    if (ready.length >= others && (!last.sfu || decodingStreams(last) >= others))
      return {
        ms: last.click === null ? null : Math.round(last.at - last.click),
        probe: last.probe,
        timeline: timeline.join(' '),
        requests: await evaluateWithin(page, joinRequests),
      };
    await sleep(200);
  }
  const peers = Object.values(last?.peers ?? {});
  const missing = peers.filter((p) => !hears(p));
  const why = missing
    .map(
      (p) =>
        `${p.name ?? ''} ${p.connected ? 'connected' : 'not connected'}, ${p.samples} samples, ${p.decrypted} decrypted${p.keys ? `, keys ${p.keys}, ${p.track ? 'an' : 'no'} audio track, failed ${JSON.stringify(p.failedBy ?? {})}` : ''}`,
    )
    .join('; ');
  const streams = last?.sfu ? `; ${decodingStreams(last)} SFU audio streams decoding; frames per sender in the worker: ${JSON.stringify(last.workers)}` : '';
  throw new Error(
    `audio from ${peers.length - missing.length}/${others} peers after ${timeoutMs / 1000} s (${others - peers.length} without a connection; ${why}${streams})`,
  );
}

/**
 * Until every page opened a frame from `participantId` (the last Node participant); ms since its
 * join call (`joinedAt`, Date.now()). Polled every 250 ms while the Node side settles.
 */
export async function waitForSenderInBrowsers(pages, participantId, joinedAt, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(pages);
  while (Date.now() < deadline) {
    for (const page of [...pending]) {
      const probe = await evaluateWithin(page, audioByPeer).catch(() => null);
      if ((probe?.peers[participantId]?.decrypted ?? 0) > 0) pending.delete(page);
    }
    if (pending.size === 0) return Math.round(Date.now() - joinedAt);
    await sleep(250);
  }
  return null;
}

/** In the window: peers whose audio samples and decrypted frames grew, and decrypt failures. */
export function audioGrowth(before, after) {
  let decoding = 0;
  let failed = 0;
  for (const [id, now] of Object.entries(after.peers)) {
    const then = before.peers[id];
    if (!then) continue;
    const samplesGrew = now.samples === null || now.samples > then.samples;
    if (samplesGrew && (now.decrypted === null || now.decrypted > then.decrypted)) decoding += 1;
    failed += (now.failed ?? 0) - (then.failed ?? 0);
  }
  // Through the SFU: the received audio streams whose samples grew.
  const streams = after.sfu ? Object.entries(after.streams).filter(([id, samples]) => samples > (before.streams?.[id] ?? 0)).length : null;
  return { decoding, failed, streams, peers: Object.keys(after.peers).length, connected: Object.values(after.peers).filter((p) => p.connected).length };
}

export function uplinkFigures(before, after, participants, sfu = false) {
  const seconds = (after.at - before.at) / 1000;
  const kbps = (bytes) => Math.round((bytes * 8) / seconds / 1000);
  const caps = [...new Set(after.camera.filter((c) => c.track).map((c) => c.maxBitrate))];
  const perConnection = after.camera.map((c, i) => kbps(c.bytes - (before.camera[i]?.bytes ?? 0))).filter((_, i) => after.camera[i].track);
  const expected = videoTarget(participants).maxBitrate;
  const withTrack = after.camera.filter((c) => c.track);
  return {
    audio: kbps(after.audioBytes - before.audioBytes),
    video: kbps(after.videoBytes - before.videoBytes),
    down: kbps(after.receivedBytes - before.receivedBytes),
    packetsIn: Math.round((after.receivedPackets - before.receivedPackets) / seconds),
    cap:
      withTrack.length === 0
        ? 'camera off'
        : `${caps
            .map((c) =>
              typeof c === 'string'
                ? c
                    .split('/')
                    .map((layer) => Number(layer) / 1000 || 'none')
                    .join('/')
                : c
                  ? c / 1000
                  : 'none',
            )
            .join(', ')}${sfu ? '' : ` (policy ${expected / 1000}) ${withTrack.every((c) => c.maxBitrate === expected) ? 'ok' : 'NOT APPLIED'}`}`,
    cameraPerConnection: withTrack.length ? `${Math.min(...perConnection)}–${Math.max(...perConnection)}` : '-',
    height: [...new Set(after.camera.filter((c) => c.height).map((c) => (c.heights.length > 1 ? c.heights.join('+') : c.height)))].join(', ') || '-',
  };
}
