// Accounts and signing in: users, one-time links, invitations, linked sign-in providers, revoked
// sessions, rate limits and profile pictures.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea, createdAt } from './columns';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    passwordHash: text('password_hash').notNull(),
    phone: text('phone'),
    // settings (SPEC point 3): timezone, tooltips ("tip"), preferredRegion, lang
    timezone: text('timezone'),
    tooltips: boolean('tooltips').notNull().default(true),
    preferredRegion: text('preferred_region', { enum: ['na', 'eu'] })
      .notNull()
      .default('eu'),
    lang: text('lang').notNull().default('en'),
    theme: text('theme', { enum: ['green', 'blue'] })
      .notNull()
      .default('green'),
    avatar: text('avatar'),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    accountType: text('account_type', { enum: ['individual', 'executive', 'enterprise'] })
      .notNull()
      .default('individual'),
    numberOfRooms: integer('number_of_rooms').notNull().default(1),
    isTrial: boolean('is_trial').notNull().default(true),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }).notNull(),
    state: text('state', { enum: ['unverified', 'active', 'expired', 'disabled'] })
      .notNull()
      .default('unverified'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    // Two-factor authentication (SPEC point 4)
    has2fa: boolean('has_2fa').notNull().default(false),
    totpSecret: text('totp_secret'),
    // With 2FA on: the last time step accepted (a code counts once). While it is being set up: the
    // step at which the pending secret was made (lib/auth/totp.ts, PENDING_SETUP_SECONDS).
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    enableMCard: boolean('enable_m_card').notNull().default(false),
    meetServer: text('meet_server'),
    // The user's own meeting-link hash: {meetServer}/{hash}
    hash: text('hash').notNull(),
    location: text('location'),
    // Raised to revoke every session cookie issued before (logout everywhere, password change).
    sessionVersion: integer('session_version').notNull().default(1),
    registrationDate: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`), uniqueIndex('users_hash_key').on(t.hash)],
);

/**
 * Two-factor recovery codes (issue 48, point 6): several per account, each good for one login.
 * Only a SHA-256 of each code is kept (the codes carry 60 random bits); a code made before
 * issue 48, six digits, keeps its password hash ("$scrypt…" or "$argon2…") and is checked as such.
 */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_id_idx').on(t.userId)],
);

/** One-time links: account activation, password reset, e-mail change. Only a hash is stored. */
export const tokens = pgTable(
  'tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['activation', 'reset', 'email_change', 'card_login'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    payload: jsonb('payload').$type<Record<string, string>>(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('tokens_hash_key').on(t.tokenHash), index('tokens_user_kind_idx').on(t.userId, t.kind)],
);

/** A registration invitation (issue 35): registers the invited address once; only a SHA-256 of the link's token is kept. */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('invitations_token_hash_key').on(t.tokenHash)],
);

/**
 * Issue 35, item 3: an account's sign-ins through an OpenID provider, by the provider's subject
 * (its stable id of the person), never by e-mail: a changed address at the provider still finds
 * the account, and another person who takes up an old address does not.
 */
export const oidcLinks = pgTable(
  'oidc_links',
  {
    /** The operator's id of the provider (OIDC_PROVIDERS' "id"). */
    provider: text('provider').notNull(),
    /** The ID token's `sub`. */
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.provider, t.subject] }), index('oidc_links_user_id_idx').on(t.userId)],
);

/**
 * Sessions ended by logging out (issue 16): a sealed cookie cannot be taken back, so its id is
 * refused until the cookie would have expired anyway.
 */
export const revokedSessions = pgTable('revoked_sessions', {
  sid: text('sid').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Attempt counters for rate limits (login, reset, 2FA…) shared by every app instance. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Profile pictures, in the database so that every app instance serves them. */
export const avatars = pgTable('avatars', {
  // Random and unguessable: it is the {avatar} of GET /api/avatar/{avatar}.
  id: text('id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  createdAt: createdAt(),
});

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
