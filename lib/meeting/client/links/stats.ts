// What getStats() says about one connection: media flowing in (what the tests and the
// benchmark watch) and a coarse quality for the tile's indicator.

export type Quality = 'good' | 'fair' | 'poor' | 'unknown';

export interface LinkStats {
  framesDecoded: number;
  screenFramesDecoded: number;
  audioSamplesReceived: number;
  roundTripMs: number | null;
  lossRatio: number | null;
  quality: Quality;
  /** How the pair connects: host (direct), srflx (through NAT), relay (TURN). */
  candidateType: string | null;
}

export function classifyQuality(roundTripMs: number | null, lossRatio: number | null): Quality {
  if (roundTripMs === null && lossRatio === null) return 'unknown';
  const rtt = roundTripMs ?? 0;
  const loss = lossRatio ?? 0;
  if (rtt > 600 || loss > 0.1) return 'poor';
  if (rtt > 250 || loss > 0.03) return 'fair';
  return 'good';
}

export async function readLinkStats(pc: RTCPeerConnection, screenReceiver: RTCRtpReceiver | null): Promise<LinkStats> {
  const report = await pc.getStats();
  const screenTrackId = screenReceiver?.track.id;
  let framesDecoded = 0;
  let screenFramesDecoded = 0;
  let audioSamplesReceived = 0;
  let packetsReceived = 0;
  let packetsLost = 0;
  let roundTripMs: number | null = null;
  let candidateType: string | null = null;
  let localCandidateId: string | undefined;
  report.forEach((stat: Record<string, unknown> & { type: string }) => {
    if (stat.type === 'inbound-rtp') {
      packetsReceived += Number(stat.packetsReceived ?? 0);
      packetsLost += Math.max(0, Number(stat.packetsLost ?? 0));
      if (stat.kind === 'video') {
        if (screenTrackId && stat.trackIdentifier === screenTrackId) screenFramesDecoded += Number(stat.framesDecoded ?? 0);
        else framesDecoded += Number(stat.framesDecoded ?? 0);
      }
      if (stat.kind === 'audio') audioSamplesReceived += Number(stat.totalSamplesReceived ?? 0);
    }
    if (stat.type === 'candidate-pair' && stat.state === 'succeeded' && (stat.nominated || roundTripMs === null)) {
      if (typeof stat.currentRoundTripTime === 'number') roundTripMs = stat.currentRoundTripTime * 1000;
      localCandidateId = stat.localCandidateId as string | undefined;
    }
  });
  if (localCandidateId) {
    const local = report.get(localCandidateId) as { candidateType?: string } | undefined;
    candidateType = local?.candidateType ?? null;
  }
  const total = packetsReceived + packetsLost;
  const lossRatio = total > 0 ? packetsLost / total : null;
  return {
    framesDecoded,
    screenFramesDecoded,
    audioSamplesReceived,
    roundTripMs,
    lossRatio,
    quality: classifyQuality(roundTripMs, lossRatio),
    candidateType,
  };
}
