import type { Locale } from '@/lib/i18n/locales';
import type { Messages } from '@/lib/i18n/messages';

declare module 'next-intl' {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
  }
}
