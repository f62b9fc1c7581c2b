import { getTranslations } from 'next-intl/server';
import { trustNoticeScript } from '@/lib/pwa/trust-notice';

/**
 * Issue 47 point 4: the warning shown when the service worker holds back a build the pinned
 * publisher's key did not sign (public/sw-trust.js). Rendered hidden on the server, in the page's
 * language, and revealed by a small inline script, as ChunkErrorPrompt: no React needed, so it also
 * works on a page whose newer bundles the worker refused.
 */
export async function BuildTrustNotice({ nonce }: { nonce?: string }) {
  const t = await getTranslations('BuildTrust');
  return (
    <>
      <section
        id="build-trust"
        role="alert"
        aria-labelledby="build-trust-title"
        hidden
        data-confirm={t('confirm')}
        className="fixed inset-x-0 bottom-0 z-50 max-h-[60vh] overflow-y-auto border-t-4 border-red-700 bg-red-50 px-4 py-3 text-sm text-red-950 shadow-lg"
      >
        <div className="mx-auto flex max-w-3xl flex-col gap-2">
          <h2 id="build-trust-title" className="text-base font-semibold">
            {t('title')}
          </h2>
          <p>{t('message')}</p>
          <p>{t('whatToDo')}</p>
          <div>
            <button type="button" className="rounded-md border border-red-800 px-3 py-1.5 font-medium hover:bg-red-100 focus-visible:outline-2">
              {t('trust')}
            </button>
          </div>
        </div>
      </section>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: trustNoticeScript }} />
    </>
  );
}
