-- Issue 17: the embedded database (PGlite) serves one process, which keeps copies of the rows every
-- request reads — a session's user row and whether the session was logged out, a calendar's
-- version — and drops a copy when these triggers report its row changed (lib/db/change-feed.ts).
-- PGlite delivers a notification before the committing statement returns to its caller.
-- They notify only on a connection that set enclave.notify_changes to 'on', which the PGlite
-- connection does when it opens: on PostgreSQL they do nothing, so commits take no NOTIFY lock.
-- The payload is the table and the row's key ('users:<id>'), or the table and '*' on TRUNCATE.
CREATE FUNCTION "notify_row_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_key text;
  new_key text;
BEGIN
  IF current_setting('enclave.notify_changes', true) IS DISTINCT FROM 'on' THEN RETURN NULL; END IF;
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('enclave_changes', TG_TABLE_NAME || ':*');
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    old_key := to_jsonb(OLD) ->> TG_ARGV[0];
    PERFORM pg_notify('enclave_changes', TG_TABLE_NAME || ':' || old_key);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    new_key := to_jsonb(NEW) ->> TG_ARGV[0];
    IF new_key IS DISTINCT FROM old_key THEN PERFORM pg_notify('enclave_changes', TG_TABLE_NAME || ':' || new_key); END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_changes" AFTER INSERT OR UPDATE OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION notify_row_change('id');
--> statement-breakpoint
CREATE TRIGGER "users_truncated" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION notify_row_change();
--> statement-breakpoint
CREATE TRIGGER "revoked_sessions_changes" AFTER INSERT OR UPDATE OR DELETE ON "revoked_sessions" FOR EACH ROW EXECUTE FUNCTION notify_row_change('sid');
--> statement-breakpoint
CREATE TRIGGER "revoked_sessions_truncated" AFTER TRUNCATE ON "revoked_sessions" FOR EACH STATEMENT EXECUTE FUNCTION notify_row_change();
--> statement-breakpoint
CREATE TRIGGER "calendar_versions_changes" AFTER INSERT OR UPDATE OR DELETE ON "calendar_versions" FOR EACH ROW EXECUTE FUNCTION notify_row_change('user_id');
--> statement-breakpoint
CREATE TRIGGER "calendar_versions_truncated" AFTER TRUNCATE ON "calendar_versions" FOR EACH STATEMENT EXECUTE FUNCTION notify_row_change();
