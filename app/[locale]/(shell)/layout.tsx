import { cookies } from 'next/headers';
import { AppShell } from '@/components/shell/AppShell';
import { getCurrentUser } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { isTheme, THEME_COOKIE } from '@/lib/theme';

export default async function ShellLayout({ children }: { children: React.ReactNode }) {
  const user = await getCurrentUser();
  const themeCookie = (await cookies()).get(THEME_COOKIE)?.value;
  const theme = isTheme(themeCookie) ? themeCookie : (user?.theme ?? 'green');
  const shellUser = user
    ? { firstName: user.firstName, lastName: user.lastName, email: user.email, enableMCard: user.enableMCard }
    : null;
  return (
    <AppShell user={shellUser} brand={config.brandName} theme={theme}>
      {children}
    </AppShell>
  );
}
