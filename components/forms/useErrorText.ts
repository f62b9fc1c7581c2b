'use client';

import { useTranslations } from 'next-intl';
import { isErrorCode } from '@/lib/errors';

/** Turns an error code of SPEC point 8 (as a zod message or an API answer) into its text. */
export function useErrorText() {
  const t = useTranslations('Errors');
  return (code: string | undefined) => (code ? (isErrorCode(code) ? t(code) : code) : undefined);
}
