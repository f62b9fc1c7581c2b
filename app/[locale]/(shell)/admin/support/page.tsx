import { AdminFrame } from '@/components/admin/AdminFrame';
import { QueueScreen } from '@/components/admin/QueueScreen';
import { adminMetadata, requireAdminPage } from '@/lib/admin/page';
import { pageLocale } from '@/lib/i18n/page';
import { listQueue } from '@/lib/support/tickets';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = adminMetadata('support');

export default async function AdminSupportPage({ params }: PageProps<'/[locale]/admin/support'>) {
  await requireAdminPage(await pageLocale(params), 'support');
  return (
    <PageMessages page="adminSupport">
      <AdminFrame current="support">
        <QueueScreen tickets={await listQueue()} />
      </AdminFrame>
    </PageMessages>
  );
}
