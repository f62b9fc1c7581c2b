import { AccountFrame } from '@/components/account/AccountFrame';
import { ShellFrame } from '@/components/shell/ShellFrame';
import { pageLocale } from '@/lib/i18n/page';
import { shellState } from '@/lib/page/shell-state';

export default async function AccountLayout({ children, params }: LayoutProps<'/[locale]'>) {
  // Layouts may render before their page: the language must be set here too.
  await pageLocale(params);
  // A logged-in person gets the app's whole frame (issue 48): in the lighter account frame the
  // drawer's "New meeting" and "Settings" opened nothing, and the upcoming poll and toasts did not run.
  const { user } = await shellState();
  if (user) return <ShellFrame>{children}</ShellFrame>;
  return <AccountFrame>{children}</AccountFrame>;
}
