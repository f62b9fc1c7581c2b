// Whether this page's media goes through the SFU (issue 38): a small stand-in for the SFU side
// (sfu/sfu-session.ts), whose code, with the SFU client and the sender keys, loads only when the
// machine first moves the call to the SFU (route-decisions.ts) or a peer that moved first sends
// its sender key. A mesh never loads it: the meeting page's first load stays as it was.
import type { SfuOutcome, SfuSession, SfuSessionContext } from '../sfu/sfu-session';
import type { RouteEffect, RouteInput } from './route-decisions';

/** The SFU side's code: one import, shared by the lobby's warm-up and the first move. */
const sfuSideCode = () => import('../sfu/sfu-session');

/**
 * The lobby of a call that will start on the SFU loads its code while the person is still there
 * (components/meeting/lobby/Lobby.tsx): fetched after the click it took 330 ms of a join of 30 on
 * this machine's loaded server, before the ticket could be asked for (bench/RESULTS.md).
 */
export function warmSfuSide(): void {
  void sfuSideCode().catch(() => undefined);
}

export class SfuRoute {
  private session: Promise<SfuSession> | null = null;
  private loaded: SfuSession | null = null;
  private closed = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  /** The breakout split as last set: an SFU side loaded later starts with it (rooms survive a move to the SFU). */
  private apart: ((peerId: string) => boolean) | null = null;

  constructor(
    private readonly ctx: SfuSessionContext,
    /** The SFU side's code (tests give their own). */
    private readonly code: () => Promise<Pick<typeof import('../sfu/sfu-session'), 'SfuSession'>> = sfuSideCode,
  ) {}

  /** The SFU side once loaded; until then a call has no SFU media, keys or layers to update. */
  get side(): SfuSession | null {
    return this.loaded;
  }

  /** Runs one of the machine's route effects (route-decisions.ts); `answer` takes the outcome back to it. */
  run(effect: RouteEffect, answer: (input: RouteInput) => void) {
    if (effect.type === 'to-sfu')
      void this.toSfu().then(
        (outcome) => answer({ type: 'moved', outcome }),
        (error: unknown) => {
          console.warn('media route', error);
          answer({ type: 'moved', outcome: 'failed' });
        },
      );
    else if (effect.type === 'to-mesh') void Promise.resolve(this.loaded?.toMesh()).then(() => answer({ type: 'moved', outcome: 'mesh' }));
    else {
      if (this.retry) clearTimeout(this.retry);
      this.retry = setTimeout(() => answer({ type: 'retry-due' }), effect.ms);
    }
  }

  private async toSfu(): Promise<SfuOutcome> {
    const session = await this.load();
    return this.closed ? 'failed' : session.toSfu();
  }

  /** A peer's sender key: a peer that moved first sends it before we follow. */
  async receiveSenderKey(from: string, generation: number, box: string): Promise<void> {
    await (await this.load()).receiveSenderKey(from, generation, box);
  }

  /** Breakout rooms opened, closed or the host moved (breakout/breakout-feature.ts). */
  regroup(apart: (peerId: string) => boolean) {
    this.apart = apart;
    this.loaded?.regroup(apart);
  }

  close() {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.loaded?.close();
  }

  private load(): Promise<SfuSession> {
    this.session ??= this.code()
      .then(({ SfuSession }) => {
        const session = new SfuSession(this.ctx);
        if (this.apart) session.regroup(this.apart);
        // Left while the code was on its way: nothing may start after.
        if (this.closed) session.close();
        else this.loaded = session;
        return session;
      })
      .catch((error: unknown) => {
        // A chunk that did not arrive (offline, a deploy replaced it): the route's retry imports it again.
        this.session = null;
        throw error;
      });
    return this.session;
  }
}
