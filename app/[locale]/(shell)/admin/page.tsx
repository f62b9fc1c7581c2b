import { RoomsScreen } from '@/components/rooms/RoomsScreen';
import { requirePageUser } from '@/lib/auth/guard';
import { privateLimits } from '@/lib/rooms/private-limits';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { roomLimit, shownRoomLimit } from '@/lib/rooms/limits';
import { listRooms } from '@/lib/rooms/list';
import { sfuConfigured } from '@/lib/sfu/nodes';
import { PageMessages } from '@/components/shell/PageMessages';

export const generateMetadata = routeMetadata('admin');

// The rooms list: the sidebar's Rooms entry opens /admin (docs/decisions.md).
export default async function AdminPage({ params }: PageProps<'/[locale]/admin'>) {
  const locale = await pageLocale(params);
  const user = await requirePageUser(locale, '/admin');
  const limits = await privateLimits();
  const rooms = (
    <PageMessages page="rooms">
      <RoomsScreen rooms={await listRooms(user.id)} limit={shownRoomLimit(roomLimit(user, limits))} billingOn={limits === null} sfu={sfuConfigured()} />
    </PageMessages>
  );
  // The instance's own administration (issue 18) is the sidebar's "Administration" entry, for
  // admins (issue 48, point 5), not a button here.
  return rooms;
}
