import { getTranslations } from 'next-intl/server';
import { config } from '@/lib/config';
import { Link } from '@/lib/i18n/navigation';
import { routeMetadata } from '@/lib/i18n/metadata';
import { pageLocale } from '@/lib/i18n/page';

export const generateMetadata = routeMetadata('meeting');

// The meeting itself (/now/{id}) fills the window, without the app's sidebar.
export default async function MeetingPage({ params }: { params: Promise<{ locale: string }> }) {
  await pageLocale(params);
  const routes = await getTranslations('Routes');
  const t = await getTranslations('Placeholder');
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-slate-900 px-6 text-center text-white">
      <h1 className="text-2xl font-bold">{routes('meeting')}</h1>
      <p className="mt-4 text-slate-300">{t('comingSoon', { brand: config.brandName })}</p>
      <Link href="/" className="mt-8 underline">
        {t('backHome')}
      </Link>
    </main>
  );
}
