'use client';

import { useCallback, useEffect, useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { usePathRouter } from '@/lib/navigation/router';
import { apiGet, apiPost } from '@/lib/api/browser';
import { isLocale } from '@/lib/i18n/locales';
import { localizedPath } from '@/lib/seo/pages';
import { Dialog } from '@/components/dialog/Dialog';
import { Field } from '@/components/forms/Field';
import { useErrorText } from '@/components/forms/useErrorText';
import { useToast } from '@/components/toast/ToastProvider';
import { AccountSummary, type AccountSummaryData } from './AccountSummary';
import { AvatarUpload } from './AvatarUpload';
import { DisableTwoFactorForm } from './DisableTwoFactorForm';
import { RecoveryCodesSection } from './RecoveryCodesSection';
import { TwoFactorSetup } from './TwoFactorSetup';

interface Profile {
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  avatar: string | null;
  user2FA: { has2FA: boolean };
  enable2fa: boolean;
  enableMCard: boolean;
  account: AccountSummaryData;
}

type Step = 0 | 1 | 2 | 3;

/**
 * The account modal (SPEC point 4), "Account & security" (issue 48, point 6): step 0 the profile
 * form, password and two-factor sign-in with its recovery codes; steps 1–3 enabling two-factor
 * authentication (QR code, code, recovery codes, then logout). With 2FA on, the button cancels it.
 * Time zone, language and theme are the Preferences page's (/settings), linked from here.
 */
export function AccountModal({ close }: { close: () => void }) {
  const t = useTranslations('AccountModal');
  const f = useTranslations('Forms');
  const toastText = useTranslations('Toast');
  const errorText = useErrorText();
  const toast = useToast();
  const router = usePathRouter();
  const locale = useLocale();
  const [profile, setProfile] = useState<Profile | null>(null);
  const [step, setStep] = useState<Step>(0);
  const [form, setForm] = useState({ firstName: '', lastName: '', phone: '', email: '', oldPassword: '', newPassword1: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [disabling, setDisabling] = useState(false);
  // The new address waiting for its confirmation link (lib/account/email-change.ts).
  const [emailPending, setEmailPending] = useState<string | null>(null);

  const show = useCallback((answer: Profile | []) => {
    if (Array.isArray(answer)) return;
    setProfile(answer);
    setForm({ firstName: answer.firstName, lastName: answer.lastName, phone: answer.phone ?? '', email: answer.email, oldPassword: '', newPassword1: '' });
  }, []);
  const load = useCallback(() => apiGet<Profile>('/api/me').then(show), [show]);

  useEffect(() => {
    let open = true;
    apiGet<Profile>('/api/me').then((answer) => open && show(answer));
    return () => {
      open = false;
    };
  }, [show]);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    if (!profile) return;
    setErrors({});
    const body: Record<string, string> = { firstName: form.firstName, lastName: form.lastName, phone: form.phone };
    if (form.email !== profile.email) body.email = form.email;
    // SPEC point 5: the password change is sent only with the current password (none on cards).
    if (form.newPassword1 && (form.oldPassword || profile.enableMCard)) body.newPassword1 = form.newPassword1;
    if (form.oldPassword) body.oldPassword = form.oldPassword;
    setBusy(true);
    const answer = await apiPost('/api/me', body);
    setBusy(false);
    if (answer.status === 'ok') {
      if (typeof answer.emailPending === 'string') setEmailPending(answer.emailPending);
      toast.success(toastText('success'));
      await load();
      router.refresh();
      return;
    }
    const field = typeof answer.field === 'string' ? answer.field : '';
    if (field in form) setErrors({ [field]: answer.errorCode ?? 'incorrect_data' });
    else toast.error(errorText(answer.errorCode) ?? '');
  }

  async function twoFactorTurnedOff() {
    setDisabling(false);
    toast.success(toastText('success'));
    await load();
  }

  const input = (name: keyof typeof form) => ({
    name,
    value: form[name],
    error: errors[name],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => setForm((current) => ({ ...current, [name]: event.target.value })),
  });

  return (
    <Dialog title={t('title')} onClose={close}>
      {!profile && <p role="status">…</p>}
      {profile && step === 0 && (
        <div className="flex flex-col gap-6">
          <AccountSummary account={profile.account} onNavigate={close} />
          {/* A full document load: /settings has its own Content-Security-Policy (lib/security/csp.ts). */}
          <a href={localizedPath(isLocale(locale) ? locale : 'en', '/settings')} className="self-start text-sm underline">
            {t('preferencesLink')}
          </a>
          <form onSubmit={save} className="flex flex-col gap-3" noValidate>
            <h3 className="font-semibold">{t('profile')}</h3>
            <AvatarUpload current={profile.avatar} onUploaded={() => void load().then(() => router.refresh())} />
            <div className="grid gap-3 sm:grid-cols-2">
              <Field label={f('firstName')} autoComplete="given-name" {...input('firstName')} />
              <Field label={f('lastName')} autoComplete="family-name" {...input('lastName')} />
            </div>
            <Field label={f('email')} type="email" autoComplete="email" {...input('email')} />
            {emailPending && (
              <p role="status" className="text-sm text-slate-700">
                {t('emailPending', { email: emailPending, current: profile.email })}
              </p>
            )}
            <Field label={f('phone')} type="tel" autoComplete="tel" {...input('phone')} />
            <h3 className="mt-2 font-semibold">{t('changePassword')}</h3>
            {!profile.enableMCard && <Field label={t('oldPassword')} type="password" autoComplete="current-password" {...input('oldPassword')} />}
            <Field label={t('newPassword')} type="password" autoComplete="new-password" hint={f('passwordHint')} {...input('newPassword1')} />
            <button type="submit" className="button-primary self-start" disabled={busy}>
              {t('save')}
            </button>
          </form>
          {profile.enable2fa && (
            <section className="border-t border-slate-200 pt-4">
              <h3 className="font-semibold">{t('twoFactor')}</h3>
              <p className="my-2 text-sm text-slate-600">{profile.user2FA.has2FA ? t('twoFactorOn') : t('twoFactorOff')}</p>
              {profile.user2FA.has2FA ? (
                disabling ? (
                  <DisableTwoFactorForm needsPassword={!profile.enableMCard} onDone={() => void twoFactorTurnedOff()} onCancel={() => setDisabling(false)} />
                ) : (
                  <>
                    <button type="button" className="button-secondary" onClick={() => setDisabling(true)}>
                      {t('disable2fa')}
                    </button>
                    <RecoveryCodesSection needsPassword={!profile.enableMCard} />
                  </>
                )
              ) : (
                <button type="button" className="button-primary" onClick={() => setStep(1)}>
                  {t('enable2fa')}
                </button>
              )}
            </section>
          )}
        </div>
      )}
      {profile && step > 0 && <TwoFactorSetup step={step as 1 | 2 | 3} onStep={setStep} />}
    </Dialog>
  );
}
