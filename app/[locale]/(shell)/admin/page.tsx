import { RoomsScreen } from '@/components/rooms/RoomsScreen';
import { requirePageUser } from '@/lib/auth/guard';
import { config } from '@/lib/config';
import { routeMetadata } from '@/lib/i18n/metadata';
import { pageLocale } from '@/lib/i18n/page';
import { roomLimit } from '@/lib/rooms/limits';
import { listRooms } from '@/lib/rooms/list';

export const generateMetadata = routeMetadata('admin');

// The rooms list: the sidebar's Rooms entry opens /admin (docs/decisions.md).
export default async function AdminPage({ params }: { params: Promise<{ locale: string }> }) {
  const locale = await pageLocale(params);
  const user = await requirePageUser(locale, '/admin');
  return <RoomsScreen rooms={await listRooms(user.id)} limit={roomLimit(user, config.onPremise)} />;
}
