-- Issue 35: a server without billing (lib/billing/mode.ts) takes its limits from the admin's configuration.
ALTER TABLE "configuration" ADD COLUMN "rooms_per_user" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "configuration" ADD COLUMN "participants_per_meeting" integer DEFAULT 30 NOT NULL;