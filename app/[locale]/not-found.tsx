import { getTranslations } from 'next-intl/server';
import { Link } from '@/lib/i18n/navigation';
import { config } from '@/lib/config';

export default async function NotFound() {
  const t = await getTranslations('NotFound');
  const routes = await getTranslations('Routes');
  return (
    <main className="mx-auto max-w-xl px-6 py-24 text-center">
      <title>{`${config.brandName} – ${routes('notFound')}`}</title>
      <h1 className="text-3xl font-bold">{t('title')}</h1>
      <p className="mt-4 text-slate-600">{t('body')}</p>
      <Link href="/" className="button-primary mt-8">
        {t('backHome')}
      </Link>
    </main>
  );
}
