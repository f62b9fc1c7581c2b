import { RATING_VALUES } from './limits';

type Translate = (key: string, values?: Record<string, string | number>) => string;

/** "3 stars – Good": what each star of the rating form is called, in the page's language. */
export function starOptions(t: Translate): string[] {
  return RATING_VALUES.map((count) => `${t('stars', { count })} – ${t(`labels.${count}`)}`);
}

/** The strings of the rating form (components/rate/RateForm), besides the star options. */
export const RATE_LABEL_KEYS = ['legend', 'comment', 'commentHint', 'submit', 'sending', 'thanks', 'choose', 'failed'] as const;
