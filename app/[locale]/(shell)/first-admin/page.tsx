import { getTranslations } from 'next-intl/server';
import { FirstAdminClaim } from '@/components/admin/FirstAdminClaim';
import { getCurrentUser } from '@/lib/auth/session';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = routeMetadata('firstAdmin');

// Issue 48, point 5: where the setup link of the server log leads (lib/admin/first-admin.ts).
// Open without a login: the page keeps the link's token while the person logs in.
export default async function FirstAdminPage({ params }: PageProps<'/[locale]/first-admin'>) {
  await pageLocale(params);
  const [t, user] = await Promise.all([getTranslations('FirstAdmin'), getCurrentUser()]);
  return (
    <PageMessages page="firstAdmin">
      <section className="mx-auto max-w-2xl">
        <h1 className="mb-4 text-2xl font-bold">{t('title')}</h1>
        <FirstAdminClaim loggedIn={user !== null} alreadyAdmin={user?.role === 'admin'} />
      </section>
    </PageMessages>
  );
}
