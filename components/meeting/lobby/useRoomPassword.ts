'use client';

import { useMemo, useState } from 'react';
import type { MeetingInfo } from '@/lib/meeting/protocol';
import { forgetRoomPassword, recallRoomPassword, rememberRoomPassword } from '@/lib/meeting/client/keys/room-password-store';
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import { roomPasswordSecrets, stretchRoomPassword } from '@/lib/meeting/room-password';

export interface PreparedPassword {
  stretched: Bytes;
  /** Sent to the server instead of the password. */
  proof: string;
  /** Mixed into the call's key; stays on this page. */
  passwordKey: Bytes;
}

/**
 * The lobby's side of the room password (docs/e2ee-crypto.md "Secrets"): the owner's browser may have kept it
 * (room-password-store.ts); otherwise it is typed. Either way it is stretched here and never sent.
 */
export function useRoomPassword(info: MeetingInfo) {
  const remembered = useMemo(
    () => (info.isHost && info.passwordSalt ? recallRoomPassword(info.meetingId, info.passwordSalt) : null),
    [info.isHost, info.meetingId, info.passwordSalt],
  );
  const [useRemembered, setUseRemembered] = useState(remembered !== null);

  return {
    needsPassword: info.hasPassword && !useRemembered,

    /** The proof and key for a join, from the kept or the typed password; null without a password. */
    async prepare(typed: string): Promise<PreparedPassword | null> {
      if (!info.hasPassword || !info.passwordSalt) return null;
      const stretched = useRemembered && remembered ? remembered : await stretchRoomPassword(typed, info.passwordSalt);
      return { stretched, ...(await roomPasswordSecrets(stretched)) };
    },

    /** The server refused the password: a kept one changed since, so forget it and ask. */
    refused() {
      if (!useRemembered) return;
      forgetRoomPassword(info.meetingId);
      setUseRemembered(false);
    },

    /** The server took it: the owner's browser keeps a typed password for next time. */
    accepted(prepared: PreparedPassword | null) {
      if (prepared && info.isHost && info.passwordSalt && !useRemembered) rememberRoomPassword(info.meetingId, info.passwordSalt, prepared.stretched);
    },
  };
}
