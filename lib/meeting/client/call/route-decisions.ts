// Where the call's media goes (issue 38, issue 49 point 1), without timers, tickets or Janus: the
// route now, a move under way, the server's refusal and the back-off after a failure. The meeting
// machine (machine.ts) keeps this state and feeds in the count and what the SFU side answered;
// the session runs the effects (sfu-route.ts, sfu/sfu-session.ts). Plain data in and out, like
// keys/key-decisions.ts, and table-tested like it (tests/unit/meeting-route-decisions.test.ts).
import { AUTO, chooseRoute, LINKS_UP_TO, type MediaRoute, type RoutePin } from './route-pin';

/** How long a call stays a mesh after a failure (no ticket now, Janus refused or went away) before it asks the SFU again. */
export const RETRY_MS = 30_000;
/**
 * Janus lost mid-call (its node died) is answered with a new ticket at once, which the server
 * places on a healthy node (lib/sfu/ticket.ts): everyone is back within seconds, not RETRY_MS. A
 * loss within this long of the previous one backs off instead: a node that keeps failing is not
 * asked in a loop.
 */
export const LOST_AGAIN_MS = 60_000;

export interface RouteState {
  readonly pin: RoutePin;
  /** Through the SFU, a link to every peer up to this many in the call (route-pin.ts LINKS_UP_TO). */
  readonly linksUpTo: number;
  /** Where our media goes now. */
  readonly route: MediaRoute;
  /** A move started and not yet answered: nothing else starts meanwhile. */
  readonly moving: MediaRoute | null;
  /** The server has no SFU (it said so): we stop asking. */
  readonly refused: boolean;
  /** After a failure the call stays a mesh until the retry is due. */
  readonly backingOff: boolean;
  /** Janus was lost: once our media is back on the links, one new ticket at once. */
  readonly reticket: boolean;
  /** When Janus was last lost (the input's clock), for LOST_AGAIN_MS. */
  readonly lostAt: number | null;
}

/** What the SFU side answered to a move: 'none' the server has no SFU, 'failed' not now. */
export type MoveOutcome = MediaRoute | 'none' | 'failed';

export type RouteInput =
  /** The number in the call may have changed. */
  | { type: 'check' }
  | { type: 'moved'; outcome: MoveOutcome }
  /** Janus went away while our media went through it, `at` ms (Date.now()). */
  | { type: 'lost'; at: number }
  | { type: 'retry-due' };

export type RouteEffect = { type: 'to-sfu' } | { type: 'to-mesh' } | { type: 'retry-after'; ms: number };

/** `serverHasSfu` false (MeetingInfo.sfu): refused from the start, so a large call links everyone at once and loads none of the SFU's code. */
export const initialRoute = (pin: RoutePin = AUTO, linksUpTo = LINKS_UP_TO, serverHasSfu = true): RouteState => ({
  pin,
  linksUpTo,
  route: 'mesh',
  moving: null,
  refused: !serverHasSfu,
  backingOff: false,
  reticket: false,
  lostAt: null,
});

/** One input: the next state and the effects to run, in order. `participants` counts ourselves. */
export function decideRoute(state: RouteState, input: RouteInput, participants: number): { state: RouteState; effects: RouteEffect[] } {
  const effects: RouteEffect[] = [];
  let next = state;
  switch (input.type) {
    case 'check':
      break;
    case 'moved':
      next = { ...next, moving: null };
      if (input.outcome === 'none') next = { ...next, refused: true };
      else if (input.outcome === 'failed') next = backOff(next, effects);
      else next = { ...next, route: input.outcome };
      break;
    case 'lost': {
      const again = next.lostAt !== null && input.at - next.lostAt < LOST_AGAIN_MS;
      next = { ...next, lostAt: input.at };
      next = again ? backOff(next, effects) : { ...next, reticket: true };
      break;
    }
    case 'retry-due':
      next = { ...next, backingOff: false };
      break;
  }
  if (next.moving) return { state: next, effects };
  const wanted = wantedRoute(next, participants);
  // Spent once the media is back on the links: the new ticket is asked for once.
  if (next.reticket && next.route === 'mesh') next = { ...next, reticket: false };
  if (wanted !== next.route) {
    next = { ...next, moving: wanted };
    effects.push({ type: wanted === 'sfu' ? 'to-sfu' : 'to-mesh' });
  }
  return { state: next, effects };
}

/**
 * After a loss our media first goes back on the links (the dead node's connections close, the
 * call carries on over the mesh), then to the SFU again at once if the call still wants it: it
 * wanted it before the loss, hence chooseRoute from 'sfu'.
 */
function wantedRoute(state: RouteState, participants: number): MediaRoute {
  if (state.refused || state.backingOff) return 'mesh';
  if (state.reticket) return state.route === 'sfu' ? 'mesh' : chooseRoute('sfu', participants, state.pin);
  return chooseRoute(state.route, participants, state.pin);
}

/**
 * Whether a page keeps a connection to every verified peer (route-pin.ts LINKS_UP_TO): always
 * where the mesh is all the call has (pinned, no SFU on this server, or the SFU failed and the
 * call waits to ask again), and through the SFU while the call is small enough to fall back to
 * the mesh at once. Above that the SFU carries everything but files, which open their own link.
 */
export function keepsLinks(state: RouteState, participants: number): boolean {
  return state.pin === 'mesh' || state.refused || state.backingOff || participants <= state.linksUpTo;
}

function backOff(state: RouteState, effects: RouteEffect[]): RouteState {
  effects.push({ type: 'retry-after', ms: RETRY_MS });
  return { ...state, backingOff: true, reticket: false };
}
