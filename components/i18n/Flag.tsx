import { flagSrc, type Locale } from '@/lib/i18n/locales';

/** The flag beside a language's name: decoration (alt=""), the name is what is read. */
export function Flag({ locale }: { locale: Locale }) {
  // A plain <img> on purpose: a 20×15 SVG from public/ needs none of next/image's work.
  return (
    // eslint-disable-next-line @next/next/no-img-element
    <img src={flagSrc(locale)} alt="" width={20} height={15} className="h-[15px] w-5 shrink-0 rounded-[2px] object-cover shadow-[0_0_0_1px_rgb(0_0_0/0.1)]" />
  );
}
