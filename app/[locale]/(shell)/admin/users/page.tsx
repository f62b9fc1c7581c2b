import { AdminFrame } from '@/components/admin/AdminFrame';
import { CardIssuer } from '@/components/admin/CardIssuer';
import { UsersScreen } from '@/components/admin/UsersScreen';
import { adminMetadata, requireAdminPage } from '@/lib/admin/page';
import { listUsers } from '@/lib/admin/users';
import { pageLocale } from '@/lib/i18n/page';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = adminMetadata('users');

export default async function AdminUsersPage({ params }: PageProps<'/[locale]/admin/users'>) {
  const user = await requireAdminPage(await pageLocale(params), 'users');
  return (
    <PageMessages page="adminUsers">
      <AdminFrame current="users">
        <UsersScreen users={await listUsers()} currentUserId={user.id} />
        <CardIssuer />
      </AdminFrame>
    </PageMessages>
  );
}
