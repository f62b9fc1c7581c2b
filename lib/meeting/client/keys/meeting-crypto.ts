// One participant's end-to-end encryption for a meeting (docs/e2ee-crypto.md): the room secret S from the
// link or a handoff, the root key and join key it gives, this page's signing and ECDH keys and
// DTLS certificate, and per peer the announced keys, the pairwise frame keys and counters.
// Nothing here is sent to the server except what docs/e2ee-crypto.md allows: tagged announcements, signed
// signals and sealed handoffs.
import { base64urlDecode, base64urlEncode, type Bytes } from '@/lib/meeting/e2ee/bytes';
import { DataChannelCipher } from '@/lib/meeting/e2ee/data-channel';
import { createHandoffRequest, openHandoff, sealHandoff, type HandoffCode, type HandoffRequest } from '@/lib/meeting/e2ee/handoff';
import {
  deriveDataKey,
  deriveJoinKey,
  deriveMediaBaseKey,
  deriveRoot,
  derivePairSecret,
  exportPublicKey,
  fragmentForSecret,
  generateEcdhKeyPair,
  generateRoomSecret,
  importEcdhPublicKey,
  kidFor,
} from '@/lib/meeting/e2ee/keys';
import { safetyCode, type SafetyCode } from '@/lib/meeting/e2ee/safety-code';
import {
  createJoinAnnouncement,
  exportSigningPublicKey,
  generateSigningKeyPair,
  importSigningPublicKey,
  normalizeFingerprint,
  sdpMatchesFingerprint,
  SignalSigner,
  SignalVerifier,
  verifyJoinAnnouncement,
  type JoinAnnouncement,
  type JsonValue,
  type SignedSignal,
} from '@/lib/meeting/e2ee/signing';
import { createFrameBackend, type FrameBackend, type FramePath, type PeerCryptoStats } from '../frames/frame-backends';
import { SLOTS, type Slot } from '../links/slots';
import type { SecretSource } from './key-state';

interface PeerKeys {
  announcement: JoinAnnouncement;
  signingKey: Bytes;
  /** ECDH(ours, theirs) as an HKDF key: the root of every epoch's frame keys for this pair. */
  pair: CryptoKey;
  /** The latest frame-key derivation for this peer, settled once its keys are in the frame worker. */
  framesReady: Promise<void>;
}

export type { PeerCryptoStats };

/** A page's keys and frame worker made ahead of the join (MeetingCrypto.prepare). */
export interface PreparedKeys {
  frames: FrameBackend;
  certificate: RTCCertificate;
  fingerprint: string;
  ecdh: CryptoKeyPair;
  ecdhPublic: Bytes;
  signing: CryptoKeyPair;
  signingPublic: Bytes;
  /** The ephemeral key a newcomer without S asks for it with (docs/e2ee-crypto.md "Who gets S"). */
  handoff?: HandoffRequest;
}

export class MeetingCrypto {
  private secret: Bytes | null = null;
  private epoch = 0;
  private root: Bytes | null = null;
  private frameWork: Promise<void> = Promise.resolve();
  private joinKey: CryptoKey | null = null;
  private own: JoinAnnouncement | null = null;
  private readonly peers = new Map<string, PeerKeys>();
  /** Set once this page asks for S: only then does it open a handoff. */
  private handoffRequest: HandoffRequest | null = null;
  /** Made in the lobby, so that POST /join can carry its public key. */
  private preparedHandoff: HandoffRequest | null = null;
  private signer: SignalSigner;
  private verifier: SignalVerifier;
  source: SecretSource | null = null;
  /** The codes of key handovers, by the other side's id: both sides see the same code (docs/e2ee-crypto.md). */
  readonly handoffCodes = new Map<string, HandoffCode>();
  private constructor(
    /** Where frames are encrypted: this page or a worker. */
    readonly frames: FrameBackend,
    readonly meetingId: string,
    readonly selfId: string,
    readonly certificate: RTCCertificate,
    readonly fingerprint: string,
    private readonly ecdh: CryptoKeyPair,
    private readonly ecdhPublic: Bytes,
    signing: CryptoKeyPair,
    private readonly signingPublic: Bytes,
    /** From the room password, when the room has one: mixed into every epoch's root (docs/e2ee-crypto.md "Password"). */
    private readonly passwordKey: Bytes | null,
  ) {
    this.signer = new SignalSigner(meetingId, selfId, signing.privateKey);
    this.verifier = new SignalVerifier(meetingId, selfId);
  }

  /**
   * What does not depend on the meeting's answer: the DTLS certificate, the ECDH and signing key
   * pairs, and the frame-encryption worker. The lobby makes them while the person looks at their
   * camera, so that joining does not wait for them (issue 17). Used once, by one `create`.
   */
  static async prepare(path: FramePath): Promise<PreparedKeys> {
    const frames = createFrameBackend(path);
    const [certificate, ecdh, signing, handoff] = await Promise.all([
      RTCPeerConnection.generateCertificate({ name: 'ECDSA', namedCurve: 'P-256' } as EcKeyGenParams),
      generateEcdhKeyPair(),
      generateSigningKeyPair(),
      createHandoffRequest(),
    ]);
    const sha256 = certificate.getFingerprints().find((f) => f.algorithm === 'sha-256') ?? certificate.getFingerprints()[0];
    const fingerprint = normalizeFingerprint(`${sha256?.algorithm ?? ''} ${sha256?.value ?? ''}`);
    if (!fingerprint) throw new Error('no DTLS fingerprint');
    const [ecdhPublic, signingPublic] = await Promise.all([exportPublicKey(ecdh.publicKey), exportSigningPublicKey(signing.publicKey)]);
    return { frames, certificate, fingerprint, ecdh, ecdhPublic, signing, signingPublic, handoff };
  }

  /** The handoff key POST /join carries for a newcomer without S (protocol.ts keyRequest). */
  static keyRequest(prepared: PreparedKeys): string | null {
    return prepared.handoff ? base64urlEncode(prepared.handoff.publicKey) : null;
  }

  /** This page's keys for the meeting: fresh on every page load (or lobby visit), never stored. */
  static async create(
    meetingId: string,
    selfId: string,
    path: FramePath,
    passwordKey: Bytes | null = null,
    prepared: Promise<PreparedKeys> = MeetingCrypto.prepare(path),
  ): Promise<MeetingCrypto> {
    const { frames, certificate, fingerprint, ecdh, ecdhPublic, signing, signingPublic, handoff } = await prepared;
    const made = new MeetingCrypto(frames, meetingId, selfId, certificate, fingerprint, ecdh, ecdhPublic, signing, signingPublic, passwordKey);
    made.preparedHandoff = handoff ?? null;
    return made;
  }

  get hasSecret(): boolean {
    return this.secret !== null;
  }

  /** The link to share with the key in its fragment (never sent to the server). */
  linkFragment(): string | null {
    return this.secret ? fragmentForSecret(this.secret) : null;
  }

  async useSecret(secret: Bytes, source: SecretSource, epoch = 0): Promise<void> {
    this.secret = secret;
    this.source = source;
    const root = await deriveRoot({ secret, passwordKey: this.passwordKey ?? undefined, roomId: this.meetingId, epoch });
    // Together: frame keys being derived meanwhile never pair one epoch's number with another's root.
    this.epoch = epoch;
    this.root = root;
    this.joinKey = await deriveJoinKey(this.root);
    this.own = await createJoinAnnouncement(this.joinKey, {
      id: this.selfId,
      signingKey: this.signingPublic,
      ecdhKey: this.ecdhPublic,
      fingerprint: this.fingerprint,
    });
  }

  /**
   * Our link's S turned out to be out of date (key-decisions.ts staleLink): forget it and what it
   * made, so that a handoff can bring the meeting's S. Nobody was verified under it.
   */
  dropSecret(): void {
    this.secret = null;
    this.source = null;
    this.root = null;
    this.joinKey = null;
    this.own = null;
    this.epoch = 0;
  }

  /** The first participant, with nobody to hand S over, makes it. */
  createSecret(): Promise<void> {
    return this.useSecret(generateRoomSecret(), 'created');
  }

  announcement(): JoinAnnouncement | null {
    return this.own;
  }

  /**
   * A peer's announcement: its tag must verify under our join key (same S, same room, same
   * epoch). Then its signing key is trusted for its signals, and the pairwise frame keys are made
   * in the background (framesReady): a join does not wait for them before it answers the peer's
   * offer, ~15–25 ms (issue 17); its first media frame comes 100 ms or more later.
   */
  async acceptAnnouncement(announcement: JoinAnnouncement): Promise<'ok' | 'mismatch'> {
    if (!this.joinKey || !this.root || announcement.id === this.selfId) return 'mismatch';
    if (!(await verifyJoinAnnouncement(this.joinKey, announcement))) return 'mismatch';
    const signingKey = base64urlDecode(announcement.signingKey);
    const ecdhKey = base64urlDecode(announcement.ecdhKey);
    if (!signingKey || !ecdhKey) return 'mismatch';
    const known = this.peers.get(announcement.id);
    // The same page announcing again (a reconnect): keep its keys and their counters.
    if (known && known.announcement.ecdhKey === announcement.ecdhKey && known.announcement.signingKey === announcement.signingKey) {
      return 'ok';
    }
    this.verifier.addPeer(announcement.id, await importSigningPublicKey(signingKey));
    const pair = await derivePairSecret(this.ecdh.privateKey, await importEcdhPublicKey(ecdhKey));
    const peer: PeerKeys = { announcement, signingKey, pair, framesReady: Promise.resolve() };
    this.peers.set(announcement.id, peer);
    peer.framesReady = this.queueFrameKeys(peer);
    // A failure here is a bug (keys the worker refused): its frames are withheld, not sent in clear.
    peer.framesReady.catch((error: unknown) => console.warn('frame keys', error));
    return 'ok';
  }

  /** Settles once the frame keys of the peer's announcement (or of a later epoch) are in place. */
  framesReady(peerId: string): Promise<void> {
    return this.peers.get(peerId)?.framesReady ?? Promise.resolve();
  }

  /**
   * Frame-key work runs one derivation after another, so keys of a later epoch (rotate) are never
   * overtaken by an earlier epoch's still on their way.
   */
  private queueFrameKeys(peer: PeerKeys): Promise<void> {
    const done = this.frameWork.then(() => this.deriveFrameKeys(peer));
    this.frameWork = done.catch(() => undefined);
    return done;
  }

  /**
   * This epoch's frame keys for one peer: per direction and transceiver, KID = epoch · 2^16.
   * Receivers keep the keys of earlier epochs, so frames already on the way still open.
   */
  private async deriveFrameKeys(peer: PeerKeys): Promise<void> {
    const id = peer.announcement.id;
    const kid = kidFor(this.epoch, 0);
    await Promise.all(
      SLOTS.map(async (slot) => {
        const [sendBase, receiveBase] = await Promise.all([
          deriveMediaBaseKey(peer.pair, this.root!, this.selfId, id, slot),
          deriveMediaBaseKey(peer.pair, this.root!, id, this.selfId, slot),
        ]);
        // The id names this key for good: a reconnect of the same page reuses its encryptor.
        const keyId = `${id} ${peer.announcement.ecdhKey} ${this.epoch} ${slot}`;
        await Promise.all([this.frames.setSendKey(id, slot, keyId, kid, sendBase), this.frames.setReceiveKey(id, slot, kid, receiveBase)]);
      }),
    );
  }

  /** A fresh cipher for one data channel with a verified peer: a key per direction, numbered messages. */
  async dataCipher(peerId: string): Promise<DataChannelCipher> {
    const peer = this.peers.get(peerId);
    if (!peer || !this.root) throw new Error('data channel before the peer was verified');
    const [send, receive] = await Promise.all([
      deriveDataKey(peer.pair, this.root, this.selfId, peerId),
      deriveDataKey(peer.pair, this.root, peerId, this.selfId),
    ]);
    return new DataChannelCipher(send, receive, this.selfId, peerId);
  }

  /** ECDH(ours, theirs) of a verified peer: what sender keys are sealed under (sfu/sender-key-ring.ts). */
  pairSecret(peerId: string): CryptoKey | null {
    return this.peers.get(peerId)?.pair ?? null;
  }

  /**
   * The keys of our messages through the SFU to this one verified peer and of its to us
   * (e2ee/sender-data.ts deriveDirectKey): of the pair secret alone, so a rekey that moves the
   * root does not change them. Null for a peer not verified.
   */
  async directKeys(peerId: string): Promise<{ send: CryptoKey; receive: CryptoKey } | null> {
    const pair = this.pairSecret(peerId);
    if (!pair) return null;
    // Loaded with the SFU's side, which alone asks for these: a mesh loads none of it.
    const { deriveDirectKey } = await import('@/lib/meeting/e2ee/sender-data');
    const [send, receive] = await Promise.all([deriveDirectKey(pair, this.selfId, peerId), deriveDirectKey(pair, peerId, this.selfId)]);
    return { send, receive };
  }

  get currentEpoch(): number {
    return this.epoch;
  }

  /** The host, after removing someone: a fresh secret for the next epoch (docs/e2ee-crypto.md "Kick"). */
  async nextEpoch(): Promise<{ secret: string; epoch: number }> {
    const secret = generateRoomSecret();
    const epoch = this.epoch + 1;
    await this.rotate(secret, epoch);
    return { secret: base64urlEncode(secret), epoch };
  }

  /** Moves to a later epoch's secret: new announcement key and new frame keys for every verified peer. */
  async rotate(secret: Bytes, epoch: number): Promise<boolean> {
    if (epoch <= this.epoch || secret.length !== 32) return false;
    await this.useSecret(secret, this.source ?? 'handoff', epoch);
    await Promise.all(
      [...this.peers.values()].map((peer) => {
        peer.framesReady = this.queueFrameKeys(peer);
        return peer.framesReady;
      }),
    );
    return true;
  }

  isVerified(peerId: string): boolean {
    return this.peers.has(peerId);
  }

  forgetPeer(peerId: string): void {
    this.peers.delete(peerId);
    this.verifier.removePeer(peerId);
  }

  sign(to: string, body: JsonValue): Promise<SignedSignal> {
    return this.signer.sign(to, body);
  }

  /** The body of a signal from a known peer, or why it was refused (signature, address, number). */
  open(signal: SignedSignal) {
    return this.verifier.check(signal);
  }

  /** Before setRemoteDescription: the SDP's DTLS fingerprint must be the one the peer announced. */
  fingerprintMatches(peerId: string, sdp: string): boolean {
    const peer = this.peers.get(peerId);
    return !!peer && sdpMatchesFingerprint(sdp, peer.announcement.fingerprint);
  }

  // ---- frames ----

  attachSender(peerId: string, slot: Slot, sender: RTCRtpSender): void {
    this.frames.attachSender(peerId, slot, sender);
  }

  /** Called in the very task that creates the receiver: a later one would be bypassed (docs/e2ee-crypto.md). */
  attachReceiver(peerId: string, slot: Slot, receiver: RTCRtpReceiver): void {
    this.frames.attachReceiver(peerId, slot, receiver);
  }

  stats(): Promise<Record<string, PeerCryptoStats>> {
    return this.frames.stats();
  }

  // ---- safety codes ----

  /** The code both screens show for this pair: equal codes mean nobody is in the middle. */
  async safetyCode(peerId: string): Promise<SafetyCode | null> {
    const peer = this.peers.get(peerId);
    if (!peer) return null;
    return safetyCode(
      { signingKey: this.signingPublic, fingerprint: this.fingerprint },
      { signingKey: peer.signingKey, fingerprint: peer.announcement.fingerprint },
    );
  }

  // ---- handoff (docs/e2ee-crypto.md "Who gets S") ----

  async requestHandoff(): Promise<string> {
    this.handoffRequest ??= this.preparedHandoff ?? (await createHandoffRequest());
    return base64urlEncode(this.handoffRequest.publicKey);
  }

  /** Whether answerHandoff could seal S to this key: we hold S, and it is an uncompressed P-256 point's length. */
  canAnswerHandoff(key: string): boolean {
    return this.secret !== null && base64urlDecode(key)?.length === 65;
  }

  /** A holder answers a newcomer's request: S and the epoch, sealed to the newcomer's key. */
  async answerHandoff(newcomerId: string, key: string): Promise<{ holderKey: string; box: string } | null> {
    const newcomerKey = base64urlDecode(key);
    if (!this.secret || newcomerKey?.length !== 65) return null;
    const { handoff, code } = await sealHandoff({ roomId: this.meetingId, newcomerId, holderId: this.selfId }, newcomerKey, this.secret, this.epoch);
    this.handoffCodes.set(newcomerId, code);
    return handoff;
  }

  /** The newcomer opens a holder's answer; false if it was tampered with or not for us. */
  async acceptHandoff(holderId: string, handoff: { holderKey: string; box: string }): Promise<boolean> {
    if (!this.handoffRequest || this.secret) return false;
    const opened = await openHandoff({ roomId: this.meetingId, newcomerId: this.selfId, holderId }, this.handoffRequest, handoff);
    if (!opened) return false;
    this.handoffCodes.set(holderId, opened.code);
    await this.useSecret(opened.secret, 'handoff', opened.epoch);
    return true;
  }
}
