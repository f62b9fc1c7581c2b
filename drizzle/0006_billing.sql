CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_requests" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"operation" text NOT NULL,
	"fingerprint" text NOT NULL,
	"result_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"stripe_customer_id" text NOT NULL,
	"stripe_subscription_id" text,
	"status" text,
	"rooms" integer DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'eur' NOT NULL,
	"unit_amount_cents" integer DEFAULT 0 NOT NULL,
	"current_period_end" timestamp with time zone,
	"rooms_until_period_end" integer,
	"card_name" text,
	"card_last4" text,
	"last_transaction_id" text,
	"last_charge_cents" integer,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_stripe_customer_id_unique" UNIQUE("stripe_customer_id"),
	CONSTRAINT "subscriptions_stripe_subscription_id_unique" UNIQUE("stripe_subscription_id")
);
--> statement-breakpoint
ALTER TABLE "configuration" ADD COLUMN "stripe_product_id" text;--> statement-breakpoint
ALTER TABLE "stripe_requests" ADD CONSTRAINT "stripe_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stripe_requests_lookup_idx" ON "stripe_requests" USING btree ("user_id","operation","fingerprint");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_records_transaction_key" ON "billing_records" USING btree ("transaction_id");