import { PublicFrame } from '@/components/public/PublicFrame';
import { pageLocale } from '@/lib/i18n/page';

export default async function PublicLayout({ children, params }: LayoutProps<'/[locale]'>) {
  // Layouts may render before their page: the language must be set here too.
  await pageLocale(params);
  return <PublicFrame>{children}</PublicFrame>;
}
