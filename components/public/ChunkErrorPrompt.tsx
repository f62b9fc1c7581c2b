import { getTranslations } from 'next-intl/server';
import { chunkWatchdog } from '@/lib/chunk-watchdog';
import { config } from '@/lib/environment';

/**
 * SPEC point 2, application start: a chunk that fails to load, or is still loading after 120 s,
 * shows this reload prompt instead of leaving a blank or dead page. It is rendered hidden on the
 * server, in the page's language, and revealed by a small inline script (no React needed, so it
 * works even when the app's own JavaScript is what failed). In a call it says that reloading
 * leaves the call (app/globals.css shows one wording or the other).
 */
export async function ChunkErrorPrompt({ nonce }: { nonce?: string }) {
  const t = await getTranslations('ChunkError');
  return (
    <>
      <div
        id="chunk-error"
        role="alert"
        hidden
        // A test server (MEETING_TEST_PROBE=1) lets an init script shorten the 120 s (lib/chunk-watchdog.ts).
        data-test-timeout={config.meetingTestProbe ? '' : undefined}
        className="fixed inset-x-0 top-0 z-50 flex flex-wrap items-center justify-center gap-3 bg-amber-100 px-4 py-3 text-sm text-amber-950 shadow"
      >
        <span data-outside-call>{t('message')}</span>
        <span data-in-call>{t('messageInCall')}</span>
        {/* An empty href reloads this very page, with or without JavaScript. */}
        <a href="" className="rounded-md bg-amber-900 px-3 py-1.5 font-medium text-white hover:bg-amber-950">
          <span data-outside-call>{t('reload')}</span>
          <span data-in-call>{t('reloadInCall')}</span>
        </a>
      </div>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: chunkWatchdog }} />
    </>
  );
}
