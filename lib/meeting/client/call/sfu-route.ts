// Whether this page's media goes through the SFU (issue 38): a small stand-in for the SFU side
// (sfu/sfu-session.ts), whose code, with the SFU client and the sender keys, loads only when the
// call first wants the SFU (route-pin.ts) or a peer that moved first sends its sender key. A mesh
// never loads it: the meeting page's first load stays as it was.
import { chooseRoute } from './route-pin';
import type { Slot } from '../links/slots';
import type { SfuSession, SfuSessionContext } from '../sfu/sfu-session';

const NONE: ReadonlyMap<string, RTCRtpReceiver> = new Map();

export class SfuRoute {
  private session: Promise<SfuSession> | null = null;
  private loaded: SfuSession | null = null;
  private closed = false;

  constructor(private readonly ctx: SfuSessionContext) {}

  /** The SFU side once loaded (the test probe reads its route, keys and connections). */
  get side(): SfuSession | null {
    return this.loaded;
  }

  /** After every change in who is here: nothing to load while the call stays a mesh. */
  async update(): Promise<void> {
    if (!this.session && chooseRoute('mesh', this.ctx.participants(), this.ctx.pin) === 'mesh') return;
    await (await this.load()).update();
  }

  /** A peer's sender key: a peer that moved first sends it before we follow. */
  async receiveSenderKey(from: string, generation: number, box: string): Promise<void> {
    await (await this.load()).receiveSenderKey(from, generation, box);
  }

  applyLayers(): Promise<void> {
    return this.loaded?.applyLayers() ?? Promise.resolve();
  }

  peerVerified(peerId: string) {
    this.loaded?.peerVerified(peerId);
  }

  peerLeft(peerId: string) {
    this.loaded?.peerLeft(peerId);
  }

  setTrack(slot: Slot, track: MediaStreamTrack | null): Promise<void> {
    return this.loaded?.setTrack(slot, track) ?? Promise.resolve();
  }

  audioReceivers(): ReadonlyMap<string, RTCRtpReceiver> {
    return this.loaded?.audioReceivers() ?? NONE;
  }

  close() {
    this.closed = true;
    this.loaded?.close();
  }

  private load(): Promise<SfuSession> {
    this.session ??= import('../sfu/sfu-session').then(({ SfuSession }) => {
      const session = new SfuSession(this.ctx);
      // Left while the code was on its way: nothing may start after.
      if (this.closed) session.close();
      else this.loaded = session;
      return session;
    });
    return this.session;
  }
}
