// Whether this page's media goes through the SFU (issue 38): a small stand-in for the SFU side
// (sfu/sfu-session.ts), whose code, with the SFU client and the sender keys, loads only when the
// call first wants the SFU (route-pin.ts) or a peer that moved first sends its sender key. A mesh
// never loads it: the meeting page's first load stays as it was.
import { chooseRoute } from './route-pin';
import type { SfuSession, SfuSessionContext } from '../sfu/sfu-session';

export class SfuRoute {
  private session: Promise<SfuSession> | null = null;
  private loaded: SfuSession | null = null;
  private closed = false;

  constructor(private readonly ctx: SfuSessionContext) {}

  /** The SFU side once loaded; until then a call has no SFU media, keys or layers to update. */
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
