CREATE TABLE "whatsapp_leases" (
	"whatsapp_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"owner" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "sending_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "whatsapp_leases" ADD CONSTRAINT "whatsapp_leases_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_leases" ADD CONSTRAINT "whatsapp_leases_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_leases_owner_idx" ON "whatsapp_leases" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "messages_unsent_idx" ON "messages" USING btree ("whatsapp_id","id") WHERE "messages"."from_me" and "messages"."wid" is null and "messages"."sending_at" is null and "messages"."ack" = 0;