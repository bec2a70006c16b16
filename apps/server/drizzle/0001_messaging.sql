CREATE TABLE "contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"number" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"profile_pic_url" text,
	"is_group" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"contact_id" integer,
	"whatsapp_id" integer,
	"user_id" integer,
	"wid" text,
	"body" text DEFAULT '' NOT NULL,
	"from_me" boolean DEFAULT false NOT NULL,
	"media_type" text DEFAULT 'chat' NOT NULL,
	"media_url" text,
	"media_name" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"is_edited" boolean DEFAULT false NOT NULL,
	"ack" integer DEFAULT 0 NOT NULL,
	"read" boolean DEFAULT false NOT NULL,
	"quoted_msg_id" bigint,
	"reaction_to_id" bigint,
	"participant" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"company_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"whatsapp_id" integer,
	"user_id" integer,
	"queue_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"unread_messages" integer DEFAULT 0 NOT NULL,
	"last_message" text DEFAULT '' NOT NULL,
	"is_group" boolean DEFAULT false NOT NULL,
	"chatbot" boolean DEFAULT false NOT NULL,
	"use_integration" boolean DEFAULT false NOT NULL,
	"prompt_id" integer,
	"integration_id" integer,
	"amount_used_bot_queues" integer DEFAULT 0 NOT NULL,
	"accepted_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_queues" (
	"company_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	CONSTRAINT "whatsapp_queues_whatsapp_id_queue_id_pk" PRIMARY KEY("whatsapp_id","queue_id")
);
--> statement-breakpoint
CREATE TABLE "whatsapp_sessions" (
	"company_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "whatsapp_sessions_whatsapp_id_key_pk" PRIMARY KEY("whatsapp_id","key")
);
--> statement-breakpoint
CREATE TABLE "whatsapps" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'DISCONNECTED' NOT NULL,
	"qrcode" text DEFAULT '' NOT NULL,
	"retries" integer DEFAULT 0 NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"provider" text DEFAULT 'beta' NOT NULL,
	"number" text,
	"greeting_message" text DEFAULT '' NOT NULL,
	"complation_message" text DEFAULT '' NOT NULL,
	"out_of_hours_message" text DEFAULT '' NOT NULL,
	"rating_message" text DEFAULT '' NOT NULL,
	"token" text,
	"expires_inactive_message" text DEFAULT '' NOT NULL,
	"expires_ticket" integer DEFAULT 0 NOT NULL,
	"time_use_bot_queues" integer DEFAULT 0 NOT NULL,
	"max_use_bot_queues" integer DEFAULT 3 NOT NULL,
	"time_to_transfer" integer DEFAULT 0 NOT NULL,
	"transfer_queue_id" integer,
	"prompt_id" integer,
	"integration_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_queues" ADD CONSTRAINT "whatsapp_queues_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_queues" ADD CONSTRAINT "whatsapp_queues_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_queues" ADD CONSTRAINT "whatsapp_queues_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_sessions" ADD CONSTRAINT "whatsapp_sessions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_sessions" ADD CONSTRAINT "whatsapp_sessions_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD CONSTRAINT "whatsapps_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD CONSTRAINT "whatsapps_transfer_queue_id_queues_id_fk" FOREIGN KEY ("transfer_queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_company_number_key" ON "contacts" USING btree ("company_id","number");--> statement-breakpoint
CREATE INDEX "contacts_company_name_idx" ON "contacts" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_whatsapp_wid_key" ON "messages" USING btree ("whatsapp_id","wid");--> statement-breakpoint
CREATE INDEX "messages_ticket_created_idx" ON "messages" USING btree ("ticket_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_company_contact_created_idx" ON "messages" USING btree ("company_id","contact_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_uuid_key" ON "tickets" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_live_per_contact_key" ON "tickets" USING btree ("company_id","contact_id","whatsapp_id") WHERE "tickets"."status" <> 'closed';--> statement-breakpoint
CREATE INDEX "tickets_company_status_updated_idx" ON "tickets" USING btree ("company_id","status","updated_at");--> statement-breakpoint
CREATE INDEX "tickets_company_queue_idx" ON "tickets" USING btree ("company_id","queue_id");--> statement-breakpoint
CREATE INDEX "tickets_company_user_idx" ON "tickets" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "tickets_company_contact_idx" ON "tickets" USING btree ("company_id","contact_id");--> statement-breakpoint
CREATE INDEX "whatsapp_queues_company_idx" ON "whatsapp_queues" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapps_company_name_key" ON "whatsapps" USING btree ("company_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapps_company_default_key" ON "whatsapps" USING btree ("company_id") WHERE "whatsapps"."is_default";--> statement-breakpoint
CREATE INDEX "whatsapps_status_idx" ON "whatsapps" USING btree ("status");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE set null ON UPDATE no action;