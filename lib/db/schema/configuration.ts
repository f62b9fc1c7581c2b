// The product-wide settings (one row).
import { boolean, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';

/** One row (id 1) of product-wide settings (SPEC point 3, "Configuration"). */
export const configuration = pgTable('configuration', {
  id: integer('id').primaryKey().default(1),
  productPriceCents: integer('product_price_cents').notNull().default(3495),
  maxEventAttendees: integer('max_event_attendees').notNull().default(100),
  enable2fa: boolean('enable_2fa').notNull().default(true),
  downloads: jsonb('downloads').$type<Record<string, string | null>>().notNull().default({}),
  // The one Stripe product that every room subscription prices (created on first use, issue 15).
  stripeProductId: text('stripe_product_id'),
  // The product name set in the admin area (issue 18); null: BRAND_NAME from the environment.
  brandName: text('brand_name'),
  // Billing off (issue 35, lib/configuration/billing-mode.ts): the limits of every account on a private server.
  roomsPerUser: integer('rooms_per_user').notNull().default(10),
  participantsPerMeeting: integer('participants_per_meeting').notNull().default(30),
  // Who may register (issue 35, lib/registration): null takes REGISTRATION / REGISTRATION_DOMAINS.
  registration: text('registration', { enum: ['open', 'domains', 'invitation', 'closed'] }),
  registrationDomains: jsonb('registration_domains').$type<string[]>(),
  // Whether any user (not only admins) may send registration invitations.
  usersMayInvite: boolean('users_may_invite').notNull().default(false),
  // The operator's public pages (issue 35, lib/public-site): what `/` shows a visitor (null: HOME_PAGE),
  // the sentence of the plain home, and the privacy (null: the built-in text) and imprint (null: none) texts.
  homePage: text('home_page', { enum: ['marketing', 'private'] }),
  homeSentence: text('home_sentence'),
  privacyText: text('privacy_text'),
  // The operator's terms of service (issue 48); null: the built-in text.
  termsText: text('terms_text'),
  imprintText: text('imprint_text'),
});

export type Configuration = typeof configuration.$inferSelect;
