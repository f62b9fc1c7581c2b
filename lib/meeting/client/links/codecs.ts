// The codecs a link offers (docs/e2ee-crypto.md "Frames"): Opus and VP8 first, whose payload layout frame
// encryption keeps in clear, and the SDP fixes their order needs across browsers.

const PREFERRED_CODEC = { audio: 'opus', video: 'vp8' } as const;

/** Whether every audio and video section of this SDP lists our codec first (PREFERRED_CODEC). */
export function leadsWithPreferredCodecs(sdp: string): boolean {
  const sections = sdp
    .split(/\r?\n(?=m=)/)
    .slice(1)
    .map((section) => section.split(/\r?\n/));
  const media = sections.filter(([mLine]) => mLine!.startsWith('m=audio ') || mLine!.startsWith('m=video '));
  return (
    media.length > 0 &&
    media.every(([mLine, ...lines]) => {
      const [kind, , , first] = mLine!.slice(2).split(' ');
      const rtpmap = lines.find((line) => line.startsWith(`a=rtpmap:${first} `));
      return (
        rtpmap
          ?.slice(rtpmap.indexOf(' ') + 1)
          .split('/')[0]
          ?.toLowerCase() === PREFERRED_CODEC[kind as 'audio' | 'video']
      );
    })
  );
}

/**
 * Video offers VP8 and its retransmissions only: frame encryption keeps the payload layout of VP8
 * alone in clear (docs/e2ee-crypto.md), and the other codecs doubled every offer and answer (9.5 KB → 4.6 KB)
 * and the time the browser takes to make and apply each (issue 17).
 */
const VIDEO_CODECS = new Set(['video/vp8', 'video/rtx']);

/**
 * The browser's codecs, ours first (video: only VP8 and RTX, when it has VP8); asked once per
 * page: getCapabilities() costs the main thread milliseconds each time, and it was asked three
 * times per connection (issue 17, profiled).
 */
const codecOrders = new Map<'audio' | 'video', RTCRtpCodec[] | null>();
export function preferredCodecs(kind: 'audio' | 'video'): RTCRtpCodec[] | null {
  if (!codecOrders.has(kind))
    codecOrders.set(kind, codecOrder(kind, typeof RTCRtpReceiver === 'undefined' ? undefined : RTCRtpReceiver.getCapabilities?.(kind)?.codecs));
  return codecOrders.get(kind) ?? null;
}

export function codecOrder(kind: 'audio' | 'video', codecs: RTCRtpCodec[] | undefined): RTCRtpCodec[] | null {
  if (!codecs) return null;
  const preferred = `${kind}/${PREFERRED_CODEC[kind]}`;
  const mime = (codec: RTCRtpCodec) => codec.mimeType.toLowerCase();
  const ours = kind === 'video' && codecs.some((codec) => mime(codec) === preferred) ? codecs.filter((codec) => VIDEO_CODECS.has(mime(codec))) : [...codecs];
  return ours.sort((a, b) => Number(mime(b) === preferred) - Number(mime(a) === preferred));
}

/**
 * A remote description without the attribute lines of payload types its section does not list.
 * Firefox (ESR 128) keeps `a=rtcp-fb` lines for the codecs setCodecPreferences left out, and
 * Chromium then refuses the whole description ("Failed to parse codecs correctly").
 */
export function withoutUnlistedPayloads(sdp: string): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  return sdp
    .split(/(?=^m=)/m)
    .map((section) => {
      if (!section.startsWith('m=')) return section;
      const listed = new Set(
        section
          .slice(0, section.search(/\r?\n|$/))
          .split(' ')
          .slice(3),
      );
      return section
        .split(eol)
        .filter((line) => {
          const payload = /^a=(?:rtpmap|fmtp|rtcp-fb):(\d+)[ ]/.exec(line)?.[1];
          return payload === undefined || listed.has(payload);
        })
        .join(eol);
    })
    .join('');
}
