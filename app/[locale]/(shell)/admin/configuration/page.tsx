import { AdminFrame } from '@/components/admin/AdminFrame';
import { ConfigurationForm } from '@/components/admin/ConfigurationForm';
import { InviteForm } from '@/components/registration/InviteForm';
import { getAdminConfiguration } from '@/lib/admin/configuration';
import { adminMetadata, requireAdminPage } from '@/lib/admin/page';
import { pageLocale } from '@/lib/i18n/page';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = adminMetadata('configuration');

export default async function AdminConfigurationPage({ params }: PageProps<'/[locale]/admin/configuration'>) {
  await requireAdminPage(await pageLocale(params), 'configuration');
  const configuration = await getAdminConfiguration();
  return (
    <PageMessages page="adminConfiguration">
      <AdminFrame current="configuration">
        <ConfigurationForm key={JSON.stringify(configuration)} initial={configuration} />
        <div className="mt-8">
          <InviteForm />
        </div>
      </AdminFrame>
    </PageMessages>
  );
}
