// How much each sender sends as the call grows (docs/e2ee-crypto.md "Mesh size"); the mesh, the
// SFU's layers and the lobby read it. On the mesh every participant
// uploads one copy per peer, so the per-connection budget shrinks with the room:
// up to 4 people 720p at 1.5 Mbps; 5–8 360p at 500 kbps; 9–15 180p at 15 fps; 16–30 small
// thumbnails sent only to peers that display them. Audio-only by default above 20 on the mesh.

export interface VideoEncoding {
  active: boolean;
  maxBitrate: number;
  maxFramerate: number;
  /** Divides the captured height: 720 / 2 = 360 and so on. */
  scaleResolutionDownBy: number;
}

/** The policy's target height and bitrate for a meeting of `participants` people. */
export function videoTarget(participants: number): { height: number; maxBitrate: number; maxFramerate: number } {
  if (participants <= 4) return { height: 720, maxBitrate: 1_500_000, maxFramerate: 30 };
  if (participants <= 8) return { height: 360, maxBitrate: 500_000, maxFramerate: 30 };
  if (participants <= 15) return { height: 180, maxBitrate: 200_000, maxFramerate: 15 };
  return { height: 90, maxBitrate: 100_000, maxFramerate: 15 };
}

/**
 * A new connection sends the camera at no more than this height for its first WARM_UP_MS after
 * it connects, then at the policy's own, as other meeting apps start soft and sharpen: the
 * first key frame is a quarter of a 720p one to encode, send and decode, and the newcomer sees a
 * face sooner (issue 17: on two busy cores a 720p first frame came 250–520 ms after the
 * connection, a 360p one 40–300 ms).
 */
export const WARM_UP_HEIGHT = 360;
export const WARM_UP_MS = 2000;

/**
 * The camera encoding for one connection. `visible` is whether that peer shows our tile (it
 * tells us over the data channel); a hidden tile costs nothing to send. `warmingUp`: the
 * connection is in its first moments (WARM_UP_MS).
 */
export function cameraEncoding(participants: number, captureHeight: number, visible: boolean, warmingUp = false): VideoEncoding {
  const target = videoTarget(participants);
  const height = captureHeight > 0 ? captureHeight : 720;
  const targetHeight = warmingUp ? Math.min(target.height, WARM_UP_HEIGHT) : target.height;
  return {
    active: visible,
    maxBitrate: target.maxBitrate,
    maxFramerate: target.maxFramerate,
    scaleResolutionDownBy: Math.max(1, height / targetHeight),
  };
}

/** A shared screen stays sharp (text) but moves slowly; one stream, so a fixed budget per peer. */
export function screenEncoding(participants: number): VideoEncoding {
  const maxBitrate = participants <= 4 ? 2_500_000 : participants <= 15 ? 1_000_000 : 500_000;
  return { active: true, maxBitrate, maxFramerate: 15, scaleResolutionDownBy: 1 };
}

/**
 * Both video senders' encodings for one connection. A sender without a track (camera off, no
 * screen shared) is inactive: an active one still takes its share of the bandwidth estimate —
 * at the start of a call the camera got ~40 % of it, so few bits that its first frames were
 * dropped and the next ones sent at 640x360 (issue 17, traced with bench:join JOIN_TRACE).
 */
export function videoEncodings(options: {
  participants: number;
  captureHeight: number;
  /** The peer shows our camera tile. */
  visible: boolean;
  camera: boolean;
  screen: boolean;
  /** The connection has not yet been up for WARM_UP_MS. */
  warmingUp: boolean;
}): { camera: VideoEncoding; screen: VideoEncoding } {
  const camera = cameraEncoding(options.participants, options.captureHeight, options.visible, options.warmingUp);
  return {
    camera: { ...camera, active: camera.active && options.camera },
    screen: { ...screenEncoding(options.participants), active: options.screen },
  };
}

/**
 * Above 20 people on the mesh a newcomer joins with the camera off (they can turn it on): each
 * camera there costs every sender one more stream. Through the SFU a sender sends its layers once
 * whatever the size, and each receiver gets only the layer its tile needs (layers.ts), so the
 * camera starts on at any size (issue 46).
 */
export function cameraOnByDefault(participants: number, throughSfu: boolean): boolean {
  return throughSfu || participants <= 20;
}

/**
 * Where a new connection's bandwidth estimate starts, in kbps: Chromium starts at 300 kbps and,
 * judging that too little for 720p, drops the first frames and sends the first seconds at
 * 320x180 (measured: first frame ~110 ms later than with 600 kbps or more). The policy's own
 * budget, at most 1 Mbps, so a large mesh does not start with a burst it cannot carry.
 */
export function startBitrateKbps(participants: number): number {
  return Math.round(Math.min(videoTarget(participants).maxBitrate, 1_000_000) / 1000);
}

/** The start bitrate on every VP8 payload of every media section (Chromium reads `x-google-start-bitrate` from its fmtp line). */
export function withVideoStartBitrate(sdp: string, kbps: number): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  // Media sections one by one: each names its own payloads.
  return sdp
    .split(/(?=^m=)/m)
    .map((section) => {
      const vp8 = [...section.matchAll(/^a=rtpmap:(\d+) VP8\/90000/gim)].map((match) => match[1]!);
      let out = section;
      for (const payload of vp8) {
        const fmtp = new RegExp(`^a=fmtp:${payload} [^\\r\\n]*`, 'm');
        out = fmtp.test(out)
          ? out.replace(fmtp, (line) => (/x-google-start-bitrate=/.test(line) ? line : `${line};x-google-start-bitrate=${kbps}`))
          : out.replace(
              new RegExp(`^a=rtpmap:${payload} VP8/90000[^\\r\\n]*`, 'im'),
              (line) => `${line}${eol}a=fmtp:${payload} x-google-start-bitrate=${kbps}`,
            );
      }
      return out;
    })
    .join('');
}

/** Opus DTX: no packets in silence. Chromium takes it from the fmtp line of the SDP. */
export function withOpusDtx(sdp: string): string {
  const opus = /a=rtpmap:(\d+) opus\/48000/i.exec(sdp);
  if (!opus) return sdp;
  const payload = opus[1];
  return sdp.replace(new RegExp(`(a=fmtp:${payload} [^\\r\\n]*)`, 'g'), (line) => (/usedtx=/.test(line) ? line : `${line};usedtx=1`));
}
