import { getTranslations } from 'next-intl/server';
import { Link } from '@/lib/i18n/links';

/** Why this server does not register here (issue 35), with the way to log in instead. */
export async function RegistrationRefused({
  reason,
  mayRegisterWithout,
}: {
  reason: 'closed' | 'invitationOnly' | 'invitationInvalid';
  mayRegisterWithout: boolean;
}) {
  const t = await getTranslations('Register');
  return (
    <div className="flex flex-col gap-4">
      <p role="status" className="rounded-md bg-amber-50 p-3 text-amber-900">
        {t(`refused.${reason}`)}
      </p>
      {mayRegisterWithout && (
        <p>
          <Link href="/register" className="text-brand underline">
            {t('refused.registerWithout')}
          </Link>
        </p>
      )}
      <p className="text-sm text-slate-600">
        {t('haveAccount')}{' '}
        <Link href="/login" className="text-brand underline">
          {t('login')}
        </Link>
      </p>
    </div>
  );
}
