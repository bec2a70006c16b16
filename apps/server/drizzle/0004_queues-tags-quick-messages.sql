CREATE TABLE "queue_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	"parent_id" integer,
	"title" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"option" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "schedules" jsonb;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "integration_id" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "prompt_id" integer;--> statement-breakpoint
ALTER TABLE "queue_options" ADD CONSTRAINT "queue_options_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_options" ADD CONSTRAINT "queue_options_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_options" ADD CONSTRAINT "queue_options_parent_id_queue_options_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."queue_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queue_options_company_queue_parent_idx" ON "queue_options" USING btree ("company_id","queue_id","parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quick_messages_company_user_shortcode_key" ON "quick_messages" USING btree ("company_id","user_id","shortcode");--> statement-breakpoint
CREATE INDEX "tags_company_kanban_idx" ON "tags" USING btree ("company_id","kanban");