// The data of SPEC point 3 and what the later features need, in one place.
// camelCase in TypeScript, snake_case in SQL; every row a user owns carries its owner.
import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const colorColumn = () => integer('color').notNull().default(1);
const colorCheck = (name: string, column: unknown) => check(name, sql`${column} between 1 and 20`);

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
    recoveryCodeHash: text('recovery_code_hash'),
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
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_hash_key').on(t.hash),
  ],
);

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
  imprintText: text('imprint_text'),
});

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

export const rooms = pgTable(
  'rooms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: colorColumn(),
    isDefault: boolean('is_default').notNull().default(false),
    adminName: text('admin_name'),
    adminEmail: text('admin_email'),
    // argon2id of the proof the browser derives from the password (lib/meeting/room-password.ts):
    // neither the password nor the key it adds to the call ever reaches the server.
    passwordHash: text('password_hash'),
    // Public, random per password: the browser's PBKDF2 salt. Set whenever passwordHash is.
    passwordSalt: text('password_salt'),
    // The stable public id in the meeting link {APP_URL}/now/{meetingId}.
    meetingId: text('meeting_id').notNull(),
    askToJoin: boolean('ask_to_join').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('rooms_owner_name_key').on(t.ownerId, sql`lower(${t.name})`),
    uniqueIndex('rooms_meeting_id_key').on(t.meetingId),
    uniqueIndex('rooms_one_default_key')
      .on(t.ownerId)
      .where(sql`${t.isDefault}`),
    colorCheck('rooms_color_range', t.color),
  ],
);

export const attendees = pgTable(
  'attendees',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phoneNumber: text('phone_number'),
    countryCode: text('country_code'),
    dialCode: text('dial_code'),
    color: colorColumn(),
    lang: text('lang').notNull().default('en'),
    timezone: text('timezone'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('attendees_owner_email_key').on(t.ownerId, sql`lower(${t.email})`),
    colorCheck('attendees_color_range', t.color),
  ],
);

export const groups = pgTable(
  'groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: colorColumn(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('groups_owner_name_key').on(t.ownerId, sql`lower(${t.name})`),
    colorCheck('groups_color_range', t.color),
  ],
);

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    attendeeId: uuid('attendee_id')
      .notNull()
      .references(() => attendees.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.attendeeId] })],
);

/** A single meeting or the master of a recurring series (wall-clock time in `timezone`). */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roomId: uuid('room_id').references(() => rooms.id, { onDelete: 'restrict' }),
    title: text('title').notNull().default('(No Title)'),
    description: text('description'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    timezone: text('timezone').notNull(),
    // The uid shared by every occurrence of a series (SPEC point 3 "repeat").
    repeat: uuid('repeat').notNull().defaultRandom(),
    repeatType: text('repeat_type', {
      enum: ['none', 'daily', 'weekly', 'monthly', 'annually', 'weekdays', 'custom'],
    })
      .notNull()
      .default('none'),
    // The RRULE line of RFC 5545 without DTSTART (which is startsAt, wall-clock in `timezone`);
    // an UNTIL in it is a UTC instant, as RFC 5545 requires beside a DTSTART with TZID.
    rrule: text('rrule'),
    // Custom repeat settings as the wizard's repeating picker sent them (to edit them again).
    repeatCustom: jsonb('repeat_custom').$type<Record<string, unknown>>(),
    // When the last occurrence ends; null while the series repeats without end. Lets a calendar
    // window skip series that are over without expanding them.
    endsAt: timestamp('ends_at', { withTimezone: true }),
    showAttendees: boolean('show_attendees').notNull().default(false),
    passwordMode: text('password_mode', { enum: ['none', 'custom', 'generated'] })
      .notNull()
      .default('none'),
    link: text('link'),
    // ICS SEQUENCE, raised on every change sent to attendees.
    sequence: integer('sequence').notNull().default(0),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('events_owner_start_idx').on(t.ownerId, t.startsAt),
    index('events_repeat_idx').on(t.repeat),
    index('events_owner_ends_idx').on(t.ownerId, t.endsAt),
  ],
);

/** A change to, or the cancellation of, one occurrence of a series (RECURRENCE-ID / EXDATE). */
export const eventExceptions = pgTable(
  'event_exceptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    originalStart: timestamp('original_start', { withTimezone: true }).notNull(),
    cancelled: boolean('cancelled').notNull().default(false),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    durationMinutes: integer('duration_minutes'),
    title: text('title'),
    description: text('description'),
    sequence: integer('sequence').notNull().default(0),
  },
  (t) => [uniqueIndex('event_exceptions_occurrence_key').on(t.eventId, t.originalStart)],
);

/**
 * How often each user's calendar changed (issue 17): triggers on events, event_exceptions and
 * rooms raise it in the writing transaction (drizzle/0008_calendar_versions.sql), whatever wrote
 * them, so the calendar's ETag costs one row's read instead of a scan of the user's rows.
 */
export const calendarVersions = pgTable('calendar_versions', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

export const eventAttendees = pgTable(
  'event_attendees',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name'),
    attendeeId: uuid('attendee_id').references(() => attendees.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    role: text('role', { enum: ['organizer', 'attendee'] })
      .notNull()
      .default('attendee'),
  },
  (t) => [uniqueIndex('event_attendees_email_key').on(t.eventId, sql`lower(${t.email})`)],
);

export const eventGroups = pgTable(
  'event_groups',
  {
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.groupId] })],
);

export const eventNotifications = pgTable(
  'event_notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['email'] })
      .notNull()
      .default('email'),
    time: integer('time').notNull(),
    timeType: text('time_type', { enum: ['minutes', 'hour', 'day'] }).notNull(),
  },
  (t) => [uniqueIndex('event_notifications_period_key').on(t.eventId, t.type, t.time, t.timeType)],
);

/**
 * The reminder outbox: one row per (occurrence, recipient, kind), written in the same transaction
 * as the event change that plans it, claimed by the worker with FOR UPDATE SKIP LOCKED. Rows that
 * are not sent yet are deleted and planned again when the event moves, and go with it when it is
 * cancelled. Sent rows stay, so that the unique key suppresses a second reminder.
 */
export const eventReminders = pgTable(
  'event_reminders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    // The occurrence: its original start (RECURRENCE-ID) and where it actually starts.
    occurrenceStart: timestamp('occurrence_start', { withTimezone: true }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    email: text('email').notNull(),
    locale: text('locale').notNull().default('en'),
    // e.g. 'email:15:minutes'
    kind: text('kind').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'skipped'] })
      .notNull()
      .default('pending'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('event_reminders_idempotency_key').on(t.idempotencyKey),
    index('event_reminders_due_idx').on(t.status, t.dueAt),
    index('event_reminders_event_idx').on(t.eventId),
  ],
);

/** A user's private ICS feed: only the token's hash is kept; a new token revokes the old one. */
export const calendarFeeds = pgTable('calendar_feeds', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: createdAt(),
});

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
  (t) => [
    uniqueIndex('tokens_hash_key').on(t.tokenHash),
    index('tokens_user_kind_idx').on(t.userId, t.kind),
  ],
);

export const supportTickets = pgTable('support_tickets', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  subject: text('subject').notNull(),
  status: text('status', { enum: ['open', 'answered', 'closed'] })
    .notNull()
    .default('open'),
  // A fixed list (lib/support/categories.ts), issue 18.
  category: text('category', { enum: ['billing', 'meetings', 'account', 'other'] })
    .notNull()
    .default('other'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const ticketMessages = pgTable('ticket_messages', {
  id: uuid('id').primaryKey().defaultRandom(),
  ticketId: uuid('ticket_id')
    .notNull()
    .references(() => supportTickets.id, { onDelete: 'cascade' }),
  // Null for an answer from support staff.
  authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
  body: text('body').notNull(),
  createdAt: createdAt(),
});

const attachmentBytes = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * A file sent with a support ticket (issue 18): an image or a log, at most 2 MiB, kept in the
 * database like avatars and served only to the ticket's owner and to admins.
 */
export const ticketAttachments = pgTable(
  'ticket_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id').references(() => ticketMessages.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    data: attachmentBytes('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('ticket_attachments_ticket_idx').on(t.ticketId)],
);

/**
 * Every change made in the admin area or by the operator CLI (issue 18): who, what, when. The
 * actor's label is kept as text, so an entry still says who acted after that account is gone.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    // An admin's e-mail, or "operator (CLI)".
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    // What the action was about, readable: an e-mail, a ticket subject, "configuration".
    target: text('target'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt)],
);

export const ratings = pgTable(
  'ratings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (t) => [check('ratings_rating_range', sql`${t.rating} between 1 and 5`)],
);

/** Billing history per account (SPEC point 3, "Account and billing"): one row per charge. Money in cents. */
export const billingRecords = pgTable(
  'billing_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan').notNull(),
    rooms: integer('rooms').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency', { enum: ['eur', 'usd'] })
      .notNull()
      .default('eur'),
    nextBillingDate: timestamp('next_billing_date', { withTimezone: true }),
    cardName: text('card_name'),
    transactionId: text('transaction_id'),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    status: text('status', { enum: ['pending', 'paid', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
  },
  // A charge (Stripe invoice) is recorded once, however often its webhook arrives.
  (t) => [uniqueIndex('billing_records_transaction_key').on(t.transactionId)],
);

/**
 * An account's Stripe subscription as Stripe last described it (issue 15), plus the allowance we
 * keep: a reduction of rooms applies from the next billing date, so until then `roomsUntilPeriodEnd`
 * holds what was paid for.
 */
export const subscriptions = pgTable('subscriptions', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeCustomerId: text('stripe_customer_id').notNull().unique(),
  stripeSubscriptionId: text('stripe_subscription_id').unique(),
  // Stripe's own status word (incomplete, active, past_due, unpaid, canceled…).
  status: text('status'),
  rooms: integer('rooms').notNull().default(0),
  currency: text('currency', { enum: ['eur', 'usd'] })
    .notNull()
    .default('eur'),
  unitAmountCents: integer('unit_amount_cents').notNull().default(0),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
  roomsUntilPeriodEnd: integer('rooms_until_period_end'),
  cardName: text('card_name'),
  cardLast4: text('card_last4'),
  lastTransactionId: text('last_transaction_id'),
  lastChargeCents: integer('last_charge_cents'),
  syncedAt: timestamp('synced_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** Stripe webhook events already applied: each event id changes our state at most once. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every mutating call to Stripe, written before its first attempt: a retry after a crash or a
 * lost answer reuses the same idempotency key, so Stripe does the work once.
 */
export const stripeRequests = pgTable(
  'stripe_requests',
  {
    idempotencyKey: text('idempotency_key').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    operation: text('operation').notNull(),
    // The operation's parameters, so that only the same request reuses the key.
    fingerprint: text('fingerprint').notNull(),
    resultId: text('result_id'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('stripe_requests_lookup_idx').on(t.userId, t.operation, t.fingerprint)],
);

/** Mail waits here until the SMTP server has taken it, so a failing server loses nothing. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    attachments: jsonb('attachments')
      .$type<{ filename: string; content: string; contentType: string }[]>()
      .notNull()
      .default([]),
    // Suppresses duplicates, e.g. one reminder per (occurrence, recipient, kind).
    idempotencyKey: text('idempotency_key'),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    sendAfter: timestamp('send_after', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('mail_outbox_idempotency_key').on(t.idempotencyKey),
    index('mail_outbox_due_idx').on(t.status, t.sendAfter),
  ],
);

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

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

/** Messages of the contact-sales form (SPEC point 2, enterprise page). */
export const contactRequests = pgTable('contact_requests', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  message: text('message').notNull(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

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

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type Room = typeof rooms.$inferSelect;
export type Attendee = typeof attendees.$inferSelect;
export type Group = typeof groups.$inferSelect;
export type Event = typeof events.$inferSelect;
export type EventException = typeof eventExceptions.$inferSelect;
export type EventReminder = typeof eventReminders.$inferSelect;
export type Configuration = typeof configuration.$inferSelect;
export type Subscription = typeof subscriptions.$inferSelect;
export type SupportTicket = typeof supportTickets.$inferSelect;
export type AuditEntry = typeof auditLog.$inferSelect;
