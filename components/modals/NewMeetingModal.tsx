'use client';

import { useEffect, useState } from 'react';
import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';
import { apiGet } from '@/lib/api/browser';
import type { RoomView } from '@/lib/rooms/view';
import { ChooseRoom } from './new-meeting/ChooseRoom';
import { MeetingReady } from './new-meeting/MeetingReady';

/**
 * The two-step new-meeting modal (SPEC point 4): choose the room and how it is protected,
 * then "Meeting ready" with the link, Join now and an e-mail invitation.
 */
export function NewMeetingModal({ close }: { close: () => void }) {
  const t = useTranslations('NewMeeting');
  const [rooms, setRooms] = useState<RoomView[] | null>(null);
  const [ready, setReady] = useState<{ room: RoomView; password: string | null } | null>(null);

  useEffect(() => {
    let cancelled = false;
    void apiGet<RoomView[]>('/api/rooms').then((list) => !cancelled && setRooms(Array.isArray(list) ? list : []));
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <Dialog title={ready ? t('readyTitle') : t('title')} onClose={close}>
      {rooms === null ? (
        <p className="text-slate-600">{t('loading')}</p>
      ) : ready ? (
        <MeetingReady room={ready.room} password={ready.password} close={close} />
      ) : (
        <ChooseRoom rooms={rooms} onReady={setReady} close={close} />
      )}
    </Dialog>
  );
}
