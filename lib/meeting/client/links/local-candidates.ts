// Our ICE candidates on their way to the other side (issue 17). An offer waits for the first
// burst of candidates, which the browser gathers within milliseconds of setLocalDescription,
// and carries them in its SDP: the answering side can check connectivity as soon as it has
// answered, and gets them without one signed, posted, relayed, verified and added message each
// (a join sent ~10 a side; each addIceCandidate() also waits for WebRTC's signaling thread).
// An answer does not wait (peer.ts). What comes later — server-reflexive and relay candidates,
// the answer's, the end of gathering — trickles; TCP candidates that only dial out never go.

/** The first candidates of a gathering come within a millisecond or two of each other: a pause this long ends the burst. */
export const CANDIDATE_QUIET_MS = 5;
/** The longest an offer waits for its candidates. */
export const CANDIDATE_WAIT_MS = 25;

type Gathering = Pick<RTCPeerConnection, 'iceGatheringState'>;
type Candidate = Pick<RTCIceCandidate, 'candidate' | 'protocol' | 'tcpType'>;

/**
 * A TCP candidate that only dials out (RFC 6544 "active", Chromium's only kind): no peer can
 * connect to it, and our side dials the other's passive candidates without it, so it is never
 * sent. Chromium gathers one per address ~120 ms after the UDP ones, in the middle of a join.
 */
export function dialsOutOnly(candidate: Candidate): boolean {
  return candidate.protocol === 'tcp' && candidate.tcpType === 'active';
}

/**
 * Which candidate this is: foundation, component, transport, priority, address, port and type.
 * The rest differs between an SDP line and RTCIceCandidate.candidate (Chromium adds the ufrag).
 */
export function candidateKey(candidate: string): string {
  return candidate.trim().split(/\s+/).slice(0, 8).join(' ');
}

/** The candidates a description carries (candidateKey). */
export function candidatesIn(sdp: string): Set<string> {
  const lines = sdp.split(/\r?\n/).filter((line) => line.startsWith('a=candidate:'));
  return new Set(lines.map((line) => candidateKey(line.slice(2))));
}

export class LocalCandidates<C extends Candidate = RTCIceCandidate> {
  /** Candidates gathered while a description waits: they may go inside it. */
  private held: (C | null)[] | null = null;
  private inDescription = new Set<string>();
  private onGathered: (() => void) | null = null;

  /**
   * `waitForHost`: whether a gathering starts with host candidates (not under a relay-only
   * policy, where the first candidate needs a TURN allocation: waiting for it would only delay).
   */
  constructor(
    private readonly pc: Gathering,
    private readonly send: (candidate: C | null) => void,
    private readonly waitForHost: boolean,
  ) {}

  /** Before setLocalDescription: what is gathered from now on waits for the description. */
  hold() {
    this.held ??= [];
  }

  /** The browser gathered a candidate (null: the gathering is over). */
  add(candidate: C | null) {
    if (!this.held) return this.forward(candidate);
    this.held.push(candidate);
    this.onGathered?.();
  }

  /**
   * After setLocalDescription: resolves once the first burst of candidates is in (a pause of
   * CANDIDATE_QUIET_MS, or the end of gathering), CANDIDATE_WAIT_MS at most.
   */
  settle(): Promise<void> {
    if (!this.waitForHost || this.pc.iceGatheringState === 'complete') return Promise.resolve();
    return new Promise((resolve) => {
      let quiet: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        clearTimeout(quiet);
        clearTimeout(cap);
        this.onGathered = null;
        resolve();
      };
      const cap = setTimeout(done, CANDIDATE_WAIT_MS);
      this.onGathered = () => {
        clearTimeout(quiet);
        if (this.pc.iceGatheringState === 'complete') return done();
        quiet = setTimeout(done, CANDIDATE_QUIET_MS);
      };
      // Some may have come while setLocalDescription resolved.
      if (this.held?.length) this.onGathered();
    });
  }

  /** The description with this SDP went: what it carries is not sent again; the rest of what waited goes now. */
  described(sdp: string) {
    this.inDescription = candidatesIn(sdp);
    this.release();
  }

  /** No description goes after all (it failed, or was rolled back): what waited goes now. */
  release() {
    const held = this.held ?? [];
    this.held = null;
    for (const candidate of held) this.forward(candidate);
  }

  private forward(candidate: C | null) {
    if (candidate && (dialsOutOnly(candidate) || this.inDescription.has(candidateKey(candidate.candidate)))) return;
    this.send(candidate);
  }
}
