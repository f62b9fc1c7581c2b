-- Issue 35, item 3: sign-in with OpenID Connect; an account's links to providers, by the provider's subject.
CREATE TABLE "oidc_links" (
	"provider" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone,
	CONSTRAINT "oidc_links_provider_subject_pk" PRIMARY KEY("provider","subject")
);
--> statement-breakpoint
ALTER TABLE "oidc_links" ADD CONSTRAINT "oidc_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oidc_links_user_id_idx" ON "oidc_links" USING btree ("user_id");