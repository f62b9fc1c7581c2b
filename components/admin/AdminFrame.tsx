import { getTranslations } from 'next-intl/server';
import { Link } from '@/lib/i18n/links';
import { adminTabs, type AdminTab } from '@/lib/admin/page';

/** The admin area's heading and its sections, one page each. */
export async function AdminFrame({ current, children }: { current: AdminTab; children: React.ReactNode }) {
  const t = await getTranslations('AdminArea');
  return (
    <section className="mx-auto flex max-w-6xl flex-col gap-4">
      <h1 className="text-2xl font-bold">
        {t('title')}: {t(`tabs.${current}`)}
      </h1>
      <nav aria-label={t('tabsLabel')}>
        <ul className="flex flex-wrap gap-1 border-b border-slate-200">
          {adminTabs.map((tab) => (
            <li key={tab}>
              <Link
                href={`/admin/${tab}`}
                aria-current={tab === current ? 'page' : undefined}
                className={`-mb-px inline-block rounded-t-md border px-3 py-2 text-sm font-medium ${
                  tab === current ? 'border-slate-200 border-b-white bg-white text-brand-strong' : 'border-transparent text-slate-600 hover:text-slate-900'
                }`}
              >
                {t(`tabs.${tab}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </section>
  );
}
