import { AccountFrame } from '@/components/account/AccountFrame';
import { pageLocale } from '@/lib/i18n/page';

export default async function AccountLayout({ children, params }: LayoutProps<'/[locale]'>) {
  // Layouts may render before their page: the language must be set here too.
  await pageLocale(params);
  return <AccountFrame>{children}</AccountFrame>;
}
