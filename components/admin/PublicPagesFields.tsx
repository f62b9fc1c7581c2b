'use client';

import { useTranslations } from 'next-intl';
import { Field } from '@/components/forms/Field';
import { SelectField } from '@/components/forms/SelectField';
import { TextAreaField } from '@/components/forms/TextAreaField';
import { homePageModes, type HomePageMode } from '@/lib/public-site/home-page';
import { PUBLIC_TEXT_LIMITS } from '@/lib/public-site/limits';

type State<T> = [T, (value: T) => void];

/** The operator's public pages (issue 35): what `/` shows, its sentence, the privacy policy, the terms of service (issue 48) and imprint. */
export function PublicPagesFields({
  defaultHomePage,
  billingOn,
  contactConfigured,
  homePage,
  sentence,
  privacy,
  terms,
  imprint,
  errors,
}: {
  defaultHomePage: HomePageMode;
  /** Without billing the sales site (plans and prices) is not offered (issue 48). */
  billingOn: boolean;
  contactConfigured: boolean;
  homePage: State<HomePageMode | ''>;
  sentence: State<string>;
  privacy: State<string>;
  terms: State<string>;
  imprint: State<string>;
  errors: Record<string, string>;
}) {
  const t = useTranslations('AdminConfiguration');
  return (
    <fieldset className="flex min-w-0 flex-col gap-3 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium text-slate-700">{t('publicPages')}</legend>
      <SelectField
        label={t('homePage')}
        value={homePage[0]}
        onChange={(event) => homePage[1](event.target.value as HomePageMode | '')}
        error={errors.home_page}
      >
        <option value="">{t('homePageDefault', { mode: t(`homePageModes.${defaultHomePage}`) })}</option>
        {homePageModes.map((value) => (
          <option key={value} value={value}>
            {/* Without billing the product site shows no plans or prices, and says so. */}
            {t(value === 'marketing' && !billingOn ? 'homePageModes.marketingFree' : `homePageModes.${value}`)}
          </option>
        ))}
      </SelectField>
      <Field
        label={t('homeSentence')}
        hint={t('homeSentenceHint')}
        maxLength={PUBLIC_TEXT_LIMITS.sentence}
        value={sentence[0]}
        onChange={(event) => sentence[1](event.target.value)}
        error={errors.home_sentence}
      />
      <TextAreaField
        label={t('privacyText')}
        hint={t('privacyTextHint')}
        rows={6}
        maxLength={PUBLIC_TEXT_LIMITS.document}
        value={privacy[0]}
        onChange={(event) => privacy[1](event.target.value)}
        error={errors.privacy_text}
      />
      <TextAreaField
        label={t('termsText')}
        hint={t('termsTextHint')}
        rows={6}
        maxLength={PUBLIC_TEXT_LIMITS.document}
        value={terms[0]}
        onChange={(event) => terms[1](event.target.value)}
        error={errors.terms_text}
      />
      <TextAreaField
        label={t('imprintText')}
        hint={t('imprintTextHint')}
        rows={6}
        maxLength={PUBLIC_TEXT_LIMITS.document}
        value={imprint[0]}
        onChange={(event) => imprint[1](event.target.value)}
        error={errors.imprint_text}
      />
      <p className="text-xs text-slate-500">{contactConfigured ? t('contactOn') : t('contactOff')}</p>
    </fieldset>
  );
}
