// A Node participant's call messages through the SFU (issue 46), exactly as a page's: the app's
// own SfuData (lib/meeting/client/sfu/sfu-data.ts) over the data channels node-sfu.ts opens on its
// Janus connections, given our sender keys and the direct keys of each verified pair, as
// lib/meeting/client/sfu/sfu-session.ts gives them. It greets every publisher it hears, answers
// greetings, sends the bench's chats to everyone sealed once under its sender key, and hears a
// peer's `link-off` (node-links.ts).
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import { LINK_OFF } from '@/lib/meeting/client/call/link-pruning';
import { SfuData, type SfuDataContext } from '@/lib/meeting/client/sfu/sfu-data';
import { benchChat } from './crowd-policy';

export interface NodeMessagesOptions {
  selfId: string;
  meetingId: string;
  ring: SfuDataContext['ring'];
  directKeys: SfuDataContext['directKeys'];
  /** The SFU's greeting pace (tests shorten it). */
  greetEveryMs?: number;
  /** A peer and we now hear each other through the SFU. */
  onHeard?(peerId: string): void;
  /** A peer's `link-off` (call/link-pruning.ts): it closed its side of our link. */
  onLinkOff?(peerId: string): void;
}

export class NodeMessages {
  readonly data: SfuData;
  /** Chats handed to SfuData (sealed and sent unless the SFU could not take them), and chats from others opened here. */
  chatsSent = 0;
  chatsOpened = 0;
  private next = 0;

  constructor(private readonly options: NodeMessagesOptions) {
    this.data = new SfuData({
      selfId: options.selfId,
      roomId: options.meetingId,
      ring: options.ring,
      directKeys: options.directKeys,
      deliver: (from, message) => {
        const t = (message as { t?: unknown } | null)?.t;
        if (t === 'chat') this.chatsOpened += 1;
        if (t === LINK_OFF) options.onLinkOff?.(from);
      },
      heard: (peerId) => options.onHeard?.(peerId),
      // Our links carry no data (node-link.ts), and above LINKS_UP_TO there are none: whatever
      // would go over one is not sent, as for a page whose link is down.
      sendLink: () => false,
      greetEveryMs: options.greetEveryMs,
    });
  }

  /** Our publisher's channel (node-sfu.ts sendData), or none while we are not on the SFU. */
  attach(send: ((bytes: Bytes) => boolean) | null) {
    this.data.attach(send && { send });
  }

  /** One chat to everyone in the call, as a page sends it; false when the SFU cannot take it now. */
  chat(now = Date.now()): boolean {
    const sent = this.data.broadcast(benchChat(this.options.selfId, this.next, now), this.data.hearing());
    if (!sent) return false;
    this.next += 1;
    this.chatsSent += 1;
    return true;
  }

  summary() {
    return {
      ...this.data.counts,
      drops: { ...this.data.drops },
      hearing: this.data.hearing().length,
      chatsSent: this.chatsSent,
      chatsOpened: this.chatsOpened,
    };
  }
}
