import { getTranslations } from 'next-intl/server';
import { RoomsScreen } from '@/components/rooms/RoomsScreen';
import { requirePageUser } from '@/lib/auth/guard';
import { privateLimits } from '@/lib/rooms/private-limits';
import { Link } from '@/lib/i18n/links';
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
  if (user.role !== 'admin') return rooms;
  // The instance's own administration (issue 18), for role "admin" only.
  const t = await getTranslations('AdminArea');
  return (
    <>
      <p className="mx-auto mb-4 max-w-5xl text-right">
        <Link href="/admin/users" className="button-secondary">
          {t('roomsLink')}
        </Link>
      </p>
      {rooms}
    </>
  );
}
