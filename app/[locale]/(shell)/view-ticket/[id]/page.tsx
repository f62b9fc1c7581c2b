import { notFound } from 'next/navigation';
import { TicketView } from '@/components/support/TicketView';
import { ApiError } from '@/lib/errors';
import { requirePageUser } from '@/lib/auth/guard';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { getTicket } from '@/lib/support/tickets';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = routeMetadata('viewTicket');

// A ticket is shown to its owner and to admins; anyone else gets "Page not found", as for an id
// that does not exist.
export default async function ViewTicketPage({ params }: PageProps<'/[locale]/view-ticket/[id]'>) {
  const locale = await pageLocale(params);
  const { id } = await params;
  const user = await requirePageUser(locale, `/view-ticket/${encodeURIComponent(id)}`);
  const ticket = await getTicket(user, id).catch((error) => {
    if (error instanceof ApiError && error.code === 'ticket_not_found') notFound();
    throw error;
  });
  return (
    <PageMessages page="viewTicket">
      <TicketView key={`${ticket.id}:${ticket.status}:${ticket.messages.length}`} ticket={ticket} />
    </PageMessages>
  );
}
