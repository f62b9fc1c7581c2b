import { Dashboard } from '@/components/dashboard/Dashboard';
import { requirePageUser } from '@/lib/auth/guard';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = routeMetadata('home');

// `/` for a logged-in user. A visitor's `/` is rewritten by proxy.ts to the marketing home
// (../(public)/welcome); should one still land here, the guard sends them to Login.
export default async function DashboardPage({ params }: PageProps<'/[locale]'>) {
  const locale = await pageLocale(params);
  const user = await requirePageUser(locale);
  return (
    <PageMessages page="dashboard">
      <Dashboard user={user} />
    </PageMessages>
  );
}
