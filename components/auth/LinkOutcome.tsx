import { getTranslations } from 'next-intl/server';
import { AuthCard } from '@/components/auth/AuthCard';
import { Link } from '@/lib/i18n/links';

/**
 * Where a mailed link's route (GET /invitation/…) lands: the outcome it put in `?status=`, said in
 * the user's language from `namespace` (one key per outcome, `missing` and `login`), and the way
 * on to the login page. An outcome the page does not know reads as `missing`.
 */
export async function LinkOutcome({
  title,
  namespace,
  outcomes,
  success,
  status,
}: {
  title: string;
  namespace: 'Activation' | 'EmailConfirmation';
  outcomes: readonly string[];
  success: string;
  status: string | string[] | undefined;
}) {
  const outcome = outcomes.find((o) => o === status) ?? 'missing';
  // The outcomes are the namespace's keys (the pages list them; a missing key fails the
  // message-keys test), which the union of two namespaces cannot type.
  const t = (await getTranslations(namespace)) as (key: string) => string;
  return (
    <AuthCard title={title}>
      <p role={outcome === success ? 'status' : 'alert'} className="mb-6">
        {t(outcome)}
      </p>
      <Link href="/login" className="button-primary">
        {t('login')}
      </Link>
    </AuthCard>
  );
}
