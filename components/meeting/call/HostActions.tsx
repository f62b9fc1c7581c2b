'use client';

import { useTranslations } from 'next-intl';
import type { MeetingSession, RemotePeer } from '@/lib/meeting/client/call/session';

/**
 * Mute, ask to unmute, remove: in a tile's menu (`inMenu`) and in the people panel. Removing
 * only asks (`onRemove`): the call view confirms it first (RemoveParticipantDialog), since it
 * cannot be undone and sits right under "Mute" (issue 48 point 7).
 */
export function HostActions({
  session,
  peer,
  onRemove,
  inMenu = false,
}: {
  session: MeetingSession;
  peer: RemotePeer;
  onRemove: (peer: RemotePeer) => void;
  inMenu?: boolean;
}) {
  const t = useTranslations('Meeting');
  const role = inMenu ? 'menuitem' : undefined;
  return (
    <>
      <button type="button" role={role} className="px-3 py-1.5 text-left hover:bg-slate-100" onClick={() => void session.hostAction('mute', peer.id)}>
        {t('muteParticipant', { name: peer.name })}
      </button>
      <button type="button" role={role} className="px-3 py-1.5 text-left hover:bg-slate-100" onClick={() => void session.hostAction('ask-unmute', peer.id)}>
        {t('askToUnmute', { name: peer.name })}
      </button>
      <button type="button" role={role} className="px-3 py-1.5 text-left text-red-700 hover:bg-red-50" onClick={() => onRemove(peer)}>
        {t('remove', { name: peer.name })}
      </button>
    </>
  );
}
