import { connection } from 'next/server';
import { config } from '@/lib/environment';
import { routeMetadata } from '@/lib/seo/page-title';
import { pageLocale } from '@/lib/i18n/page';
import { MeetingApp } from '@/components/meeting/MeetingApp';

export const generateMetadata = routeMetadata('meeting');

// The meeting itself (/now/{id}) fills the window, without the app's sidebar. Everything
// after the lobby runs in the browser: media never passes the server.
export default async function MeetingPage({ params }: PageProps<'/[locale]/now/[id]'>) {
  await pageLocale(params);
  const { id } = await params;
  // Read per request, not at build: the test probe follows the running server's setting.
  await connection();
  return (
    <div className="min-h-screen bg-slate-900">
      <MeetingApp meetingId={id} testProbe={config.meetingTestProbe} />
    </div>
  );
}
