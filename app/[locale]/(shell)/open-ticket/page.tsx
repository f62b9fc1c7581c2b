import { OpenTicketForm } from '@/components/support/OpenTicketForm';
import { requirePageUser } from '@/lib/auth/guard';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = routeMetadata('openTicket');

export default async function OpenTicketPage({ params }: PageProps<'/[locale]/open-ticket'>) {
  const locale = await pageLocale(params);
  await requirePageUser(locale, '/open-ticket');
  return (
    <PageMessages page="openTicket">
      <OpenTicketForm />
    </PageMessages>
  );
}
