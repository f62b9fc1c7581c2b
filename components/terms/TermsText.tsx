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
      {sections.map((section) => (
        <section key={section.key} aria-labelledby={`terms-${section.key}`}>
          <Heading id={`terms-${section.key}`} className="mb-2 text-lg font-semibold text-slate-900">
            {section.title}
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

/** When the terms last changed (shown as "Last updated"). */
export const TERMS_UPDATED = new Date(Date.UTC(2026, 10, 24));
