import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ApiError } from '@/lib/errors';
import { billingOn } from '@/lib/configuration/billing-mode';
import { config } from '@/lib/environment';
import { DEFAULT_PRIVATE_LIMITS } from '@/lib/rooms/limits';
import { PARTICIPANTS_PER_MEETING, ROOMS_PER_USER } from './limit-ranges';
import { downloadPlatforms, type DownloadPlatform } from '@/lib/configuration/configuration';
import { rememberBrandName } from '@/lib/configuration/brand';
import { getDb } from '@/lib/db/client';
import { configuration } from '@/lib/db/schema';
import { isDomain, parseDomains, registrationModes, type RegistrationMode } from '@/lib/registration/policy';
import { defaultRegistrationPolicy } from '@/lib/registration/settings';
import { homePageModes, type HomePageMode } from '@/lib/public-site/home-page';
import { defaultHomePageMode } from '@/lib/public-site/settings';
import { PUBLIC_TEXT_LIMITS } from '@/lib/public-site/limits';
import { writeAudit, type Actor } from '@/lib/audit/audit-log';

/** What the admin area shows and edits (SPEC point 3 "Configuration", plus brand and downloads). */
export interface AdminConfiguration {
  product_price: number;
  max_event_attendees: number;
  enable2fa: boolean;
  /** The name set here; null: the environment's BRAND_NAME (`defaultBrandName`). */
  brandName: string | null;
  defaultBrandName: string;
  downloads: Record<DownloadPlatform, string>;
  /** Billing off (issue 35): the rooms each account may have, and the seats of each meeting. */
  rooms_per_user: number;
  participants_per_meeting: number;
  /** Whether billing is on: then SPEC's plans set the limits and the two above wait. */
  billingOn: boolean;
  /** Who may register (issue 35): the admin's choice, or null for the environment's default below. */
  registration: RegistrationMode | null;
  registration_domains: string[] | null;
  defaultRegistration: { mode: RegistrationMode; domains: string[] };
  /** Whether ordinary users may send registration invitations (admins always may). */
  users_may_invite: boolean;
  /** What `/` shows a visitor (issue 35): the admin's choice, or null for the environment's default below. */
  home_page: HomePageMode | null;
  defaultHomePage: HomePageMode;
  /** The plain home's sentence, the privacy policy (null: built-in text) and the imprint (null: none). */
  home_sentence: string | null;
  privacy_text: string | null;
  /** The operator's terms of service (issue 48); null: the built-in text. */
  terms_text: string | null;
  imprint_text: string | null;
  /** Whether SALES_EMAIL is set: without it the contact-sales form is hidden. */
  contactConfigured: boolean;
}

const bad = { error: 'incorrect_data' } as const;

/** An http(s) address, or '' for "none": anything else (javascript:, a relative path) is refused. */
const downloadUrl = z
  .string(bad)
  .trim()
  .max(2000, 'incorrect_data')
  .refine((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), 'incorrect_data');

/** An operator's text, trimmed; empty means "none" (null). Rendered as text, never as HTML. */
function operatorText(max: number) {
  return z
    .string(bad)
    .max(max, 'incorrect_data')
    .nullish()
    .transform((value) => (value === undefined ? undefined : value?.trim() || null));
}

/** Every field optional: a change names only what it changes. */
export const configurationSchema = z.object({
  // Euros/dollars with at most two decimals, up to 100,000 per room and month.
  product_price: z
    .number(bad)
    .min(0, 'incorrect_data')
    .max(100_000, 'incorrect_data')
    .refine((value) => Number.isInteger(Math.round(value * 100)) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, 'incorrect_data')
    .optional(),
  max_event_attendees: z.number(bad).int('incorrect_data').min(1, 'incorrect_data').max(10_000, 'incorrect_data').optional(),
  enable2fa: z.boolean(bad).optional(),
  rooms_per_user: z.number(bad).int('incorrect_data').min(ROOMS_PER_USER.min, 'incorrect_data').max(ROOMS_PER_USER.max, 'incorrect_data').optional(),
  participants_per_meeting: z
    .number(bad)
    .int('incorrect_data')
    .min(PARTICIPANTS_PER_MEETING.min, 'incorrect_data')
    .max(PARTICIPANTS_PER_MEETING.max, 'incorrect_data')
    .optional(),
  brandName: z
    .string(bad)
    .trim()
    .max(60, 'incorrect_data')
    .nullish()
    .transform((value) => (value ? value : value === undefined ? undefined : null)),
  downloads: z.partialRecord(z.enum(downloadPlatforms, bad), downloadUrl).optional(),
  // null: back to the environment's REGISTRATION / REGISTRATION_DOMAINS.
  registration: z.enum(registrationModes, bad).nullable().optional(),
  registration_domains: z
    .union([z.string(bad).max(2000, 'incorrect_data'), z.array(z.string(bad).max(253, 'incorrect_data')).max(100, 'incorrect_data')])
    .nullable()
    .optional()
    .transform((value) => (value == null ? value : parseDomains(value)))
    .refine((value) => value == null || value.every(isDomain), 'incorrect_data'),
  users_may_invite: z.boolean(bad).optional(),
  // null: back to HOME_PAGE (or what the billing mode implies).
  home_page: z.enum(homePageModes, bad).nullable().optional(),
  // '' or null: the built-in text (sentence, privacy) or no page (imprint).
  home_sentence: operatorText(PUBLIC_TEXT_LIMITS.sentence),
  privacy_text: operatorText(PUBLIC_TEXT_LIMITS.document),
  terms_text: operatorText(PUBLIC_TEXT_LIMITS.document),
  imprint_text: operatorText(PUBLIC_TEXT_LIMITS.document),
});

export type ConfigurationChange = z.output<typeof configurationSchema>;

export async function getAdminConfiguration(): Promise<AdminConfiguration> {
  const db = await getDb();
  const [row] = await db.select().from(configuration).where(eq(configuration.id, 1)).limit(1);
  const stored = row?.downloads ?? {};
  return {
    product_price: (row?.productPriceCents ?? 3495) / 100,
    max_event_attendees: row?.maxEventAttendees ?? 100,
    enable2fa: row?.enable2fa ?? true,
    brandName: row?.brandName ?? null,
    defaultBrandName: config.brandName,
    downloads: Object.fromEntries(downloadPlatforms.map((p) => [p, typeof stored[p] === 'string' ? stored[p] : ''])) as Record<DownloadPlatform, string>,
    rooms_per_user: row?.roomsPerUser ?? DEFAULT_PRIVATE_LIMITS.roomsPerUser,
    participants_per_meeting: row?.participantsPerMeeting ?? DEFAULT_PRIVATE_LIMITS.participantsPerMeeting,
    billingOn: billingOn(),
    registration: row?.registration ?? null,
    registration_domains: row?.registrationDomains ?? null,
    defaultRegistration: defaultRegistrationPolicy(),
    users_may_invite: row?.usersMayInvite ?? false,
    home_page: row?.homePage ?? null,
    defaultHomePage: defaultHomePageMode(),
    home_sentence: row?.homeSentence ?? null,
    privacy_text: row?.privacyText ?? null,
    terms_text: row?.termsText ?? null,
    imprint_text: row?.imprintText ?? null,
    contactConfigured: Boolean(config.salesEmail),
  };
}

const textSummary = (text: string | null) => (text === null ? null : `${text.length} characters`);

/** Applies a change and writes what changed (before → after) to the audit log. */
export async function updateConfiguration(change: ConfigurationChange, actor: Actor): Promise<AdminConfiguration> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.insert(configuration).values({ id: 1 }).onConflictDoNothing();
    const [row] = await tx.select().from(configuration).where(eq(configuration.id, 1)).for('update');
    const set: Partial<typeof configuration.$inferInsert> = {};
    const diff: Record<string, { from: unknown; to: unknown }> = {};
    if (change.product_price !== undefined) {
      const cents = Math.round(change.product_price * 100);
      if (cents !== row!.productPriceCents) diff.product_price = { from: row!.productPriceCents / 100, to: cents / 100 };
      set.productPriceCents = cents;
    }
    if (change.max_event_attendees !== undefined) {
      if (change.max_event_attendees !== row!.maxEventAttendees) diff.max_event_attendees = { from: row!.maxEventAttendees, to: change.max_event_attendees };
      set.maxEventAttendees = change.max_event_attendees;
    }
    if (change.enable2fa !== undefined) {
      if (change.enable2fa !== row!.enable2fa) diff.enable2fa = { from: row!.enable2fa, to: change.enable2fa };
      set.enable2fa = change.enable2fa;
    }
    if (change.rooms_per_user !== undefined) {
      if (change.rooms_per_user !== row!.roomsPerUser) diff.rooms_per_user = { from: row!.roomsPerUser, to: change.rooms_per_user };
      set.roomsPerUser = change.rooms_per_user;
    }
    if (change.participants_per_meeting !== undefined) {
      if (change.participants_per_meeting !== row!.participantsPerMeeting)
        diff.participants_per_meeting = { from: row!.participantsPerMeeting, to: change.participants_per_meeting };
      set.participantsPerMeeting = change.participants_per_meeting;
    }
    if (change.registration !== undefined) {
      if (change.registration !== row!.registration) diff.registration = { from: row!.registration, to: change.registration };
      set.registration = change.registration;
    }
    if (change.registration_domains !== undefined) {
      // An empty list is "none of my own": the environment's domains apply again.
      const next = change.registration_domains?.length ? change.registration_domains : null;
      if (JSON.stringify(next) !== JSON.stringify(row!.registrationDomains)) diff.registration_domains = { from: row!.registrationDomains, to: next };
      set.registrationDomains = next;
    }
    if (change.users_may_invite !== undefined) {
      if (change.users_may_invite !== row!.usersMayInvite) diff.users_may_invite = { from: row!.usersMayInvite, to: change.users_may_invite };
      set.usersMayInvite = change.users_may_invite;
    }
    if (change.home_page !== undefined) {
      if (change.home_page !== row!.homePage) diff.home_page = { from: row!.homePage, to: change.home_page };
      set.homePage = change.home_page;
    }
    // The texts can be long: the audit log says that they changed and how long they are now.
    const texts = [
      ['home_sentence', 'homeSentence'],
      ['privacy_text', 'privacyText'],
      ['terms_text', 'termsText'],
      ['imprint_text', 'imprintText'],
    ] as const;
    for (const [field, column] of texts) {
      const next = change[field];
      if (next === undefined) continue;
      if (next !== row![column])
        diff[field] = field === 'home_sentence' ? { from: row![column], to: next } : { from: textSummary(row![column]), to: textSummary(next) };
      set[column] = next;
    }
    if (change.brandName !== undefined) {
      if (change.brandName !== row!.brandName) diff.brandName = { from: row!.brandName, to: change.brandName };
      set.brandName = change.brandName;
    }
    if (change.downloads) {
      const downloads: Record<string, string | null> = { ...row!.downloads };
      for (const [platform, url] of Object.entries(change.downloads)) {
        const next = url || null;
        if ((downloads[platform] ?? null) !== next) diff[`downloads.${platform}`] = { from: downloads[platform] ?? null, to: next };
        downloads[platform] = next;
      }
      set.downloads = downloads;
    }
    // "Only these domains" with no domain at all would admit nobody while looking open.
    const fallback = defaultRegistrationPolicy();
    const mode = set.registration !== undefined ? set.registration : row!.registration;
    const domains = set.registrationDomains !== undefined ? set.registrationDomains : row!.registrationDomains;
    if ((mode ?? fallback.mode) === 'domains' && !(domains ?? fallback.domains).length) throw new ApiError('incorrect_data', { field: 'registration_domains' });
    if (Object.keys(diff).length === 0) return;
    await tx.update(configuration).set(set).where(eq(configuration.id, 1));
    await writeAudit(tx, actor, 'update_configuration', { label: 'configuration' }, diff);
  });
  const saved = await getAdminConfiguration();
  rememberBrandName(saved.brandName);
  return saved;
}
