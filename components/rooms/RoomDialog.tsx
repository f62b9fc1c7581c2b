'use client';

import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { DialogActions } from '@/components/forms/DialogActions';
import type { z } from 'zod';
import { apiPost } from '@/lib/api/browser';
import { passwordChange } from '@/lib/meeting/client/keys/room-password-store';
import { roomSchema } from '@/lib/rooms/schemas';
import type { RoomView } from '@/lib/rooms/view';
import { Dialog } from '@/components/dialog/Dialog';
import { ColorPicker } from '@/components/forms/ColorPicker';
import { Field } from '@/components/forms/Field';
import { showAnswerError } from '@/components/forms/answers';
import { useApiFeedback } from '@/components/forms/useApiFeedback';
import { DEFAULT_COLOR } from '@/lib/colors';
import { MediaRouteChoice } from './MediaRouteChoice';

type Input = z.input<typeof roomSchema>;
type Output = z.output<typeof roomSchema>;
const FIELDS = ['name', 'color', 'password', 'isDefault', 'mediaRoute'] as const;

/**
 * The add/edit room modal (SPEC point 2): name, colour, password, the default flag, and how its
 * calls carry media (issue 38; `sfu`: this server has an SFU to route them through). Without an
 * SFU the media choice is not offered (issue 48): the room keeps the route it has, unseen.
 */
export function RoomDialog({ room, sfu, onClose }: { room?: RoomView; sfu: boolean; onClose: () => void }) {
  const t = useTranslations('Rooms');
  const feedback = useApiFeedback();
  const [removePassword, setRemovePassword] = useState(false);
  const { register, handleSubmit, control, setError, formState } = useForm<Input, unknown, Output>({
    resolver: zodResolver(roomSchema),
    defaultValues: {
      name: room?.name ?? '',
      color: room?.color ?? DEFAULT_COLOR,
      password: '',
      isDefault: room?.isDefault ?? false,
      mediaRoute: room?.mediaRoute ?? 'auto',
    },
  });

  async function onSubmit({ password, ...values }: Output) {
    // An empty password keeps the current one; null removes it. A new one goes as a proof only.
    const change = await passwordChange(room && removePassword ? null : password);
    const answer = room
      ? await apiPost('/api/room/update', { ...values, ...change.fields, id: room.id })
      : await apiPost('/api/room', { ...values, ...change.fields });
    if (answer.status !== 'ok') return showAnswerError(answer, FIELDS, setError, feedback.failed);
    const saved = answer.room as RoomView | undefined;
    if (saved) change.settle(saved.meetingId);
    feedback.succeeded();
    onClose();
  }

  const { errors, isSubmitting } = formState;
  return (
    <Dialog title={room ? t('editTitle') : t('addTitle')} onClose={onClose}>
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="flex flex-col gap-4">
        <Field label={t('name')} hint={t('nameHint')} autoComplete="off" error={errors.name?.message} {...register('name')} />
        <Controller control={control} name="color" render={({ field }) => <ColorPicker value={field.value} onChange={field.onChange} />} />
        <Field
          label={room?.hasPassword ? t('newPassword') : t('password')}
          type="password"
          autoComplete="new-password"
          hint={room?.hasPassword ? t('newPasswordHint') : t('passwordHint')}
          disabled={removePassword}
          error={errors.password?.message}
          {...register('password')}
        />
        {room?.hasPassword && (
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={removePassword} onChange={(event) => setRemovePassword(event.target.checked)} />
            {t('removePassword')}
          </label>
        )}
        {sfu && (
          <Controller
            control={control}
            name="mediaRoute"
            render={({ field }) => <MediaRouteChoice value={field.value ?? 'auto'} onChange={field.onChange} />}
          />
        )}
        <label className="flex items-center gap-2">
          {/* The flag moves by making another room the default, never by unticking it here. */}
          <input type="checkbox" disabled={room?.isDefault} {...register('isDefault')} />
          {t('isDefault')}
        </label>
        <DialogActions onCancel={onClose} busy={isSubmitting} />
      </form>
    </Dialog>
  );
}
