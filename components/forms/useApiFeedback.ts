'use client';

import { useMemo } from 'react';
import { useTranslations } from 'next-intl';
import { usePathRouter } from '@/lib/navigation/router';
import { useToast } from '@/components/toast/ToastProvider';
import { useErrorText } from './useErrorText';

/**
 * After a change through the API (SPEC point 4, toasts): "Success" and a re-render of the page's
 * server data, or the error's message. Authentication failures show nothing: they log out.
 */
export function useApiFeedback() {
  const toast = useToast();
  const t = useTranslations('Toast');
  const errorText = useErrorText();
  const router = usePathRouter();
  return useMemo(
    () => ({
      succeeded() {
        toast.success(t('success'));
        router.refresh();
      },
      failed(code: string) {
        if (code !== 'authentication_error') toast.error(errorText(code) ?? code);
      },
    }),
    [toast, t, errorText, router],
  );
}
