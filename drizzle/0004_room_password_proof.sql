ALTER TABLE "rooms" ADD COLUMN "password_salt" text;--> statement-breakpoint
-- A password set before this version was hashed as typed; the browser now sends a proof derived
-- from it, which can never match. Those rooms stay closed (fail-closed) until their owner sets the
-- password again; they only need a salt so that the lobby can ask for one.
UPDATE "rooms" SET "password_salt" = substr(md5(random()::text || "id"::text), 1, 22) WHERE "password_hash" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "events" DROP COLUMN "password_hash";
