'use client';

import { useTranslations } from 'next-intl';
import type { MeetingSession, RemotePeer } from '@/lib/meeting/client/call/session';

/** Mute, ask to unmute, remove: in a tile's menu (`inMenu`) and in the people panel. */
export function HostActions({ session, peer, inMenu = false }: { session: MeetingSession; peer: RemotePeer; inMenu?: boolean }) {
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
      <button type="button" role={role} className="px-3 py-1.5 text-left text-red-700 hover:bg-red-50" onClick={() => void session.hostAction('remove', peer.id)}>
        {t('remove', { name: peer.name })}
      </button>
    </>
  );
}
