CREATE TABLE "calendar_versions" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "calendar_versions" ADD CONSTRAINT "calendar_versions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Issue 17: each user's calendar version, raised in the writing transaction by every insert, update
-- or delete of what the calendar shows (events, their exceptions, rooms), whatever wrote it. Row locks:
-- one user's calendar writes queue on their version row. A user being deleted gets no row back.
CREATE FUNCTION "calendar_bump"(owner uuid) RETURNS void LANGUAGE sql AS $$
  INSERT INTO calendar_versions (user_id, version) SELECT id, 1 FROM users WHERE id = owner
  ON CONFLICT (user_id) DO UPDATE SET version = calendar_versions.version + 1
$$;
--> statement-breakpoint
CREATE FUNCTION "calendar_changed_by_owner"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN PERFORM calendar_bump(NEW.owner_id); END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.owner_id IS DISTINCT FROM NEW.owner_id) THEN PERFORM calendar_bump(OLD.owner_id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "calendar_changed_by_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN PERFORM calendar_bump(e.owner_id) FROM events e WHERE e.id = NEW.event_id; END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.event_id IS DISTINCT FROM NEW.event_id) THEN
    PERFORM calendar_bump(e.owner_id) FROM events e WHERE e.id = OLD.event_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "events_calendar_version" AFTER INSERT OR UPDATE OR DELETE ON "events" FOR EACH ROW EXECUTE FUNCTION calendar_changed_by_owner();
--> statement-breakpoint
CREATE TRIGGER "rooms_calendar_version" AFTER INSERT OR UPDATE OR DELETE ON "rooms" FOR EACH ROW EXECUTE FUNCTION calendar_changed_by_owner();
--> statement-breakpoint
CREATE TRIGGER "event_exceptions_calendar_version" AFTER INSERT OR UPDATE OR DELETE ON "event_exceptions" FOR EACH ROW EXECUTE FUNCTION calendar_changed_by_event();
