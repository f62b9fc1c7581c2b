'use client';

// The lobby's background dialog, loaded when first opened: the lobby's own JavaScript stays as it was.
import { useTranslations } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';
import type { BackgroundChoice } from '@/lib/meeting/client/background/choice';
import { BackgroundPicker } from './BackgroundPicker';

interface BackgroundDialogProps {
  onChoose: (choice: BackgroundChoice) => Promise<void>;
  cameraOn: boolean;
  onClose: () => void;
}

export default function BackgroundDialog({ onChoose, cameraOn, onClose }: BackgroundDialogProps) {
  const t = useTranslations('Meeting.background');
  return (
    <Dialog title={t('title')} onClose={onClose} size="max-w-lg">
      <BackgroundPicker onChoose={onChoose} cameraOn={cameraOn} />
    </Dialog>
  );
}
