'use client';

import { useState } from 'react';
import { useTranslations } from 'next-intl';
import { Field } from '@/components/forms/Field';
import { useApiFeedback } from '@/components/forms/useApiFeedback';
import { apiPost } from '@/lib/api/browser';
import type { AdminConfiguration } from '@/lib/admin/configuration';
import type { HomePageMode } from '@/lib/public-site/home-page';
import type { RegistrationMode } from '@/lib/registration/policy';
import { PrivateLimitsFields } from './PrivateLimitsFields';
import { PublicPagesFields } from './PublicPagesFields';
import { RegistrationFields } from './RegistrationFields';

const platforms = ['outlook', 'android', 'ios', 'windows', 'mac', 'linux'] as const;

/**
 * SPEC point 3 "Configuration" (product_price, max_event_attendees, enable2fa), the limits without
 * billing, who may register, the public pages, brand name and downloads. Without billing (issue 48)
 * there is no price and one participant limit: the participants per meeting.
 */
export function ConfigurationForm({ initial }: { initial: AdminConfiguration }) {
  const t = useTranslations('AdminConfiguration');
  const feedback = useApiFeedback();
  const [price, setPrice] = useState(String(initial.product_price));
  const [maxAttendees, setMaxAttendees] = useState(String(initial.max_event_attendees));
  const [enable2fa, setEnable2fa] = useState(initial.enable2fa);
  const [roomsPerUser, setRoomsPerUser] = useState(String(initial.rooms_per_user));
  const [participants, setParticipants] = useState(String(initial.participants_per_meeting));
  const [registration, setRegistration] = useState<RegistrationMode | ''>(initial.registration ?? '');
  const [domains, setDomains] = useState((initial.registration_domains ?? []).join(', '));
  const [usersMayInvite, setUsersMayInvite] = useState(initial.users_may_invite);
  const [homePage, setHomePage] = useState<HomePageMode | ''>(initial.home_page ?? '');
  const [sentence, setSentence] = useState(initial.home_sentence ?? '');
  const [privacy, setPrivacy] = useState(initial.privacy_text ?? '');
  const [terms, setTerms] = useState(initial.terms_text ?? '');
  const [imprint, setImprint] = useState(initial.imprint_text ?? '');
  const [brandName, setBrandName] = useState(initial.brandName ?? '');
  const [downloads, setDownloads] = useState(initial.downloads);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setErrors({});
    setBusy(true);
    const billing = initial.billingOn;
    const answer = await apiPost('/api/admin/configuration', {
      // Without billing there is no price, and the participants per meeting are the one limit (issue 48).
      product_price: billing ? Number(price.replace(',', '.')) : undefined,
      max_event_attendees: billing ? Number(maxAttendees) : undefined,
      enable2fa,
      rooms_per_user: Number(roomsPerUser),
      participants_per_meeting: Number(participants),
      registration: registration || null,
      registration_domains: domains.trim() || null,
      users_may_invite: usersMayInvite,
      home_page: homePage || null,
      home_sentence: sentence,
      privacy_text: privacy,
      terms_text: terms,
      imprint_text: imprint,
      brandName: brandName.trim() || null,
      downloads,
    });
    setBusy(false);
    if (answer.status === 'ok') feedback.succeeded();
    else if (typeof answer.field === 'string') setErrors({ [answer.field]: answer.errorCode ?? 'incorrect_data' });
    else feedback.failed(answer.errorCode ?? 'error_contact_us');
  }

  return (
    <form onSubmit={submit} className="flex max-w-2xl flex-col gap-4">
      {initial.billingOn && (
        <>
          <Field
            label={t('price')}
            hint={t('priceHint')}
            inputMode="decimal"
            value={price}
            onChange={(event) => setPrice(event.target.value)}
            error={errors.product_price}
            required
          />
          <Field
            label={t('maxAttendees')}
            hint={t('maxAttendeesHint')}
            type="number"
            min={1}
            max={10000}
            value={maxAttendees}
            onChange={(event) => setMaxAttendees(event.target.value)}
            error={errors.max_event_attendees}
            required
          />
        </>
      )}
      <div className="flex items-start gap-2">
        <input
          id="config-2fa"
          type="checkbox"
          checked={enable2fa}
          onChange={(event) => setEnable2fa(event.target.checked)}
          aria-describedby="config-2fa-hint"
          className="mt-1"
        />
        <div>
          <label htmlFor="config-2fa" className="text-sm font-medium text-slate-700">
            {t('enable2fa')}
          </label>
          <p id="config-2fa-hint" className="text-xs text-slate-500">
            {t('enable2faHint')}
          </p>
        </div>
      </div>
      <PrivateLimitsFields
        billingOn={initial.billingOn}
        rooms={[roomsPerUser, setRoomsPerUser]}
        participants={[participants, setParticipants]}
        errors={errors}
      />
      <RegistrationFields
        defaults={initial.defaultRegistration}
        mode={[registration, setRegistration]}
        domains={[domains, setDomains]}
        usersMayInvite={[usersMayInvite, setUsersMayInvite]}
        errors={errors}
      />
      <PublicPagesFields
        defaultHomePage={initial.defaultHomePage}
        billingOn={initial.billingOn}
        contactConfigured={initial.contactConfigured}
        homePage={[homePage, setHomePage]}
        sentence={[sentence, setSentence]}
        privacy={[privacy, setPrivacy]}
        terms={[terms, setTerms]}
        imprint={[imprint, setImprint]}
        errors={errors}
      />
      <Field
        label={t('brandName')}
        hint={t('brandHint', { default: initial.defaultBrandName })}
        maxLength={60}
        value={brandName}
        onChange={(event) => setBrandName(event.target.value)}
        error={errors.brandName}
      />
      <fieldset className="flex flex-col gap-3 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-medium text-slate-700">{t('downloads')}</legend>
        <p className="text-xs text-slate-500">{t('downloadsHint')}</p>
        {platforms.map((platform) => (
          <Field
            key={platform}
            label={t(`platforms.${platform}`)}
            type="url"
            value={downloads[platform]}
            onChange={(event) => setDownloads({ ...downloads, [platform]: event.target.value })}
            error={errors[`downloads.${platform}`]}
          />
        ))}
      </fieldset>
      <div>
        <button type="submit" className="button-primary" disabled={busy}>
          {t('save')}
        </button>
      </div>
    </form>
  );
}
