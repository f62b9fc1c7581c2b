// Whether this page's media goes through the SFU (issue 38): a small stand-in for the SFU side
// (sfu/sfu-session.ts), whose code, with the SFU client and the sender keys, loads only when the
// machine first moves the call to the SFU (route-decisions.ts) or a peer that moved first sends
// its sender key. A mesh never loads it: the meeting page's first load stays as it was.
import type { SfuOutcome, SfuSession, SfuSessionContext } from '../sfu/sfu-session';

export class SfuRoute {
  private session: Promise<SfuSession> | null = null;
  private loaded: SfuSession | null = null;
  private closed = false;

  constructor(private readonly ctx: SfuSessionContext) {}

  /** The SFU side once loaded; until then a call has no SFU media, keys or layers to update. */
  get side(): SfuSession | null {
    return this.loaded;
  }

  /** The machine's effect 'to-sfu': loads the SFU side the first time. */
  async toSfu(): Promise<SfuOutcome> {
    const session = await this.load();
    return this.closed ? 'failed' : session.toSfu();
  }

  /** The machine's effect 'to-mesh'. */
  async toMesh(): Promise<void> {
    await this.loaded?.toMesh();
  }

  /** A peer's sender key: a peer that moved first sends it before we follow. */
  async receiveSenderKey(from: string, generation: number, box: string): Promise<void> {
    await (await this.load()).receiveSenderKey(from, generation, box);
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
