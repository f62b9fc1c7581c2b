import { AppShell } from '@/components/shell/AppShell';
import { shellState } from '@/lib/auth/shell-state';
import { config } from '@/lib/config';

export default async function ShellLayout({ children }: { children: React.ReactNode }) {
  const { user, theme } = await shellState();
  return (
    <AppShell user={user} brand={config.brandName} theme={theme}>
      {children}
    </AppShell>
  );
}
