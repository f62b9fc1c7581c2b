-- Issue 48, point 4: the operator's terms of service (null: the built-in text, which leaves out
-- trial and payment on a server without billing), edited in the admin area like the privacy text.
ALTER TABLE "configuration" ADD COLUMN "terms_text" text;