import { ShellFrame } from '@/components/shell/ShellFrame';
import { pageLocale } from '@/lib/i18n/page';

export default async function ShellLayout({ children, params }: LayoutProps<'/[locale]'>) {
  // Layouts may render before their page: the language must be set here too.
  await pageLocale(params);
  return <ShellFrame>{children}</ShellFrame>;
}
