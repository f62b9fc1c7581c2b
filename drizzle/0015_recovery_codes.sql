-- Issue 48, point 6: several single-use two-factor recovery codes per account, as SHA-256 hashes; each account's old six-digit code (a password hash) carries over as one of them.
CREATE TABLE "recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recovery_codes_user_id_idx" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
INSERT INTO "recovery_codes" ("user_id", "code_hash") SELECT "id", "recovery_code_hash" FROM "users" WHERE "recovery_code_hash" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "recovery_code_hash";