-- Issue 38: the host pins a room's calls to peer to peer ('mesh') or the SFU ('sfu'); 'auto' moves by the number in the call.
ALTER TABLE "rooms" ADD COLUMN "media_route" text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_media_route_values" CHECK ("rooms"."media_route" in ('auto', 'mesh', 'sfu'));