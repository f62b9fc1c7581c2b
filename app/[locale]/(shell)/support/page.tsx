import { SupportScreen } from '@/components/support/SupportScreen';
import { requirePageUser } from '@/lib/auth/guard';
import { getBrandName } from '@/lib/configuration/brand';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { listOwnTickets } from '@/lib/support/tickets';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = routeMetadata('support');

// Support (issue 18): the user's own tickets; staff find the queue in the admin area.
export default async function SupportPage({ params }: PageProps<'/[locale]/support'>) {
  const locale = await pageLocale(params);
  const user = await requirePageUser(locale, '/support');
  const [tickets, brand] = await Promise.all([listOwnTickets(user), getBrandName()]);
  return (
    <PageMessages page="support">
      <SupportScreen tickets={tickets} brand={brand} isAdmin={user.role === 'admin'} />
    </PageMessages>
  );
}
