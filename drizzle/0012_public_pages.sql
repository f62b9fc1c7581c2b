-- Issue 35, item 4: the operator's public pages. What `/` shows a visitor (null: HOME_PAGE, whose
-- default follows the billing mode), the sentence of the plain home, and the privacy policy and
-- imprint texts (privacy null: the built-in text; imprint null: no imprint page).
ALTER TABLE "configuration" ADD COLUMN "home_page" text;--> statement-breakpoint
ALTER TABLE "configuration" ADD COLUMN "home_sentence" text;--> statement-breakpoint
ALTER TABLE "configuration" ADD COLUMN "privacy_text" text;--> statement-breakpoint
ALTER TABLE "configuration" ADD COLUMN "imprint_text" text;