ALTER TABLE "queues" ADD COLUMN "auto_assignment" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "last_assigned_user_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "max_open_tickets" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "availability" text DEFAULT 'online' NOT NULL;