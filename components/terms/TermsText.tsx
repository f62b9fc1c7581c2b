/** The sections of the terms of service, as the page and the terms dialog both show them. */
export interface TermsSection {
  key: string;
  title: string;
  body: string[];
}

export function TermsText({ intro, sections, closing, headingLevel = 2 }: { intro: string; sections: TermsSection[]; closing: string; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="flex flex-col gap-6 text-slate-700">
      <p>{intro}</p>
      {sections.map((section, index) => (
        <section key={section.key} aria-labelledby={`terms-${section.key}`}>
          <Heading id={`terms-${section.key}`} className="mb-2 text-lg font-semibold text-slate-900">
            {/* Numbered here, not in the catalogue, so a left-out section leaves no gap. */}
            {`${index + 1}. ${section.title.replace(/^\d+\.\s*/, '')}`}
          </Heading>
          {section.body.map((paragraph) => (
            <p key={paragraph} className="mt-2">
              {paragraph}
            </p>
          ))}
        </section>
      ))}
      <p className="text-sm text-slate-600">{closing}</p>
    </div>
  );
}

export const TERMS_SECTIONS = ['service', 'accounts', 'billing', 'use', 'privacy', 'recordings', 'availability', 'liability', 'ending', 'contact'] as const;

/** The built-in terms' sections on this server: without billing (issue 48) there is no trial or payment to agree to. */
export const termsSections = (billingOn: boolean) => TERMS_SECTIONS.filter((key) => billingOn || key !== 'billing');

/**
 * Where a section's paragraphs are in the catalogue ("Terms"): without billing the liability
 * section names no payment (issue 48), and with an SFU the service section says larger calls go
 * through it (lib/sfu/public-texts.ts); otherwise the section's own body.
 */
export function termsBodyKey(key: (typeof TERMS_SECTIONS)[number], server: { billingOn: boolean; hasSfu: boolean }): string {
  if (key === 'liability' && !server.billingOn) return 'sections.liability.bodyFree';
  if (key === 'service' && server.hasSfu) return 'sections.service.bodySfu';
  return `sections.${key}.body`;
}

/** When the terms last changed (shown as "Last updated"). */
export const TERMS_UPDATED = new Date(Date.UTC(2026, 10, 24));
