DROP INDEX "messages_unsent_idx";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "sending_by" text;--> statement-breakpoint
CREATE INDEX "messages_unsent_idx" ON "messages" USING btree ("whatsapp_id","id") WHERE "messages"."from_me" and "messages"."wid" is null and "messages"."ack" = 0;