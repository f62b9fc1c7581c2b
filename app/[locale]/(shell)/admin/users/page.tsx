import { AdminFrame } from '@/components/admin/AdminFrame';
import { CardIssuer } from '@/components/admin/CardIssuer';
import { UsersScreen } from '@/components/admin/UsersScreen';
import { adminMetadata, requireAdminPage } from '@/lib/admin/page';
import { listUsers } from '@/lib/admin/users';
import { pageLocale } from '@/lib/i18n/page';
import { privateLimits } from '@/lib/rooms/private-limits';
import { shownRoomLimit } from '@/lib/rooms/limits';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = adminMetadata('users');

export default async function AdminUsersPage({ params }: PageProps<'/[locale]/admin/users'>) {
  const user = await requireAdminPage(await pageLocale(params), 'users');
  // Without billing: no plan or trial columns, and each account's room allowance (issue 48).
  const limits = await privateLimits();
  return (
    <PageMessages page="adminUsers">
      <AdminFrame current="users">
        <UsersScreen
          users={await listUsers()}
          currentUserId={user.id}
          billingOn={limits === null}
          roomsPerUser={limits ? shownRoomLimit(limits.roomsPerUser) : null}
        />
        <CardIssuer />
      </AdminFrame>
    </PageMessages>
  );
}
