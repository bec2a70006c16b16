CREATE TABLE "ticket_note_mentions" (
	"note_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "ticket_note_mentions_note_id_user_id_pk" PRIMARY KEY("note_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "push_preferences" ADD COLUMN "mention" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_note_mentions" ADD CONSTRAINT "ticket_note_mentions_note_id_ticket_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."ticket_notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_note_mentions" ADD CONSTRAINT "ticket_note_mentions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_note_mentions" ADD CONSTRAINT "ticket_note_mentions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_note_mentions" ADD CONSTRAINT "ticket_note_mentions_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_note_mentions_company_user_idx" ON "ticket_note_mentions" USING btree ("company_id","user_id","created_at");