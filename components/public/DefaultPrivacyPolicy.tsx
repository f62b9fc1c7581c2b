import { getTranslations } from 'next-intl/server';
import { mediaTextKey, mediaTextValues } from '@/lib/sfu/public-texts';

/** The sections of the built-in policy; "billing" only where this server takes payments. */
const SECTIONS = ['account', 'meetings', 'media', 'cookies', 'addresses', 'mail', 'billing', 'retention', 'rights', 'contact'] as const;

/**
 * The privacy policy a server has until its operator writes their own (issue 35): what this
 * software stores and what it never sees, true for every install; the operator's address when set.
 */
export async function DefaultPrivacyPolicy({
  brand,
  contactEmail,
  billingOn,
  hasSfu,
}: {
  brand: string;
  contactEmail: string | null;
  billingOn: boolean;
  hasSfu: boolean;
}) {
  const t = await getTranslations('PrivacyDefault');
  const sections = SECTIONS.filter((key) => key !== 'billing' || billingOn);
  return (
    <div className="flex flex-col gap-4 break-words text-slate-700">
      <p>{t('intro', { brand })}</p>
      {sections.map((key) => (
        <section key={key} aria-labelledby={`privacy-${key}`}>
          <h2 id={`privacy-${key}`} className="mt-4 text-xl font-semibold text-slate-900">
            {t(`${key}.title`)}
          </h2>
          <p className="mt-2">
            {key === 'contact'
              ? contactEmail
                ? t.rich('contact.body', {
                    email: contactEmail,
                    mail: (chunks) => (
                      <a href={`mailto:${contactEmail}`} className="font-medium text-brand underline underline-offset-2">
                        {chunks}
                      </a>
                    ),
                  })
                : t('contact.bodyNone', { brand })
              : t(key === 'media' ? mediaTextKey('media.body', hasSfu) : `${key}.body`, { brand, ...mediaTextValues })}
          </p>
        </section>
      ))}
    </div>
  );
}
