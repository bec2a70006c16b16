CREATE TABLE "user_ratings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer,
	"user_id" integer,
	"rate" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_ratings_rate_check" CHECK ("user_ratings"."rate" between 1 and 3)
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "schedules" jsonb;--> statement-breakpoint
ALTER TABLE "user_ratings" ADD CONSTRAINT "user_ratings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_ratings" ADD CONSTRAINT "user_ratings_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_ratings" ADD CONSTRAINT "user_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_ratings_company_created_idx" ON "user_ratings" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "user_ratings_company_user_idx" ON "user_ratings" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "user_ratings_company_ticket_idx" ON "user_ratings" USING btree ("company_id","ticket_id");