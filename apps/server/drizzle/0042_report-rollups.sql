CREATE TABLE "report_handled" (
	"company_id" integer NOT NULL,
	"day" date NOT NULL,
	"user_id" integer NOT NULL,
	"prev_day" date,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_rollup_marks" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"rolled_through" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_rollups" (
	"company_id" integer NOT NULL,
	"span" text NOT NULL,
	"start" date NOT NULL,
	"kind" text NOT NULL,
	"dim" text NOT NULL,
	"dim_id" integer,
	"bucket" smallint NOT NULL,
	"n" integer NOT NULL,
	"total" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_handled" ADD CONSTRAINT "report_handled_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_rollup_marks" ADD CONSTRAINT "report_rollup_marks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_rollups" ADD CONSTRAINT "report_rollups_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_handled_company_day_idx" ON "report_handled" USING btree ("company_id","day");--> statement-breakpoint
CREATE INDEX "report_rollups_company_span_idx" ON "report_rollups" USING btree ("company_id","dim","span","start");--> statement-breakpoint
-- An event inserted or deleted on a day the rollups already cover (a late event, a deleted ticket)
-- moves the company's mark back to the day before it: the reports read that day's events again
-- until the rollup job rewrites it (decision 0121). Live events (today) never touch the mark row.
CREATE FUNCTION report_rollup_unmark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE report_rollup_marks m SET rolled_through = c.day - 1
  FROM (SELECT company_id, min((at AT TIME ZONE 'America/Sao_Paulo')::date) AS day
        FROM changed GROUP BY company_id) c
  WHERE m.company_id = c.company_id AND m.rolled_through >= c.day;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ticket_events_rollup_insert AFTER INSERT ON ticket_events
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_rollup_unmark();
--> statement-breakpoint
CREATE TRIGGER ticket_events_rollup_delete AFTER DELETE ON ticket_events
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_rollup_unmark();
--> statement-breakpoint
-- The same for ratings (the rollups count them by agent and rate): a rating of a rolled day.
CREATE FUNCTION report_rollup_unmark_ratings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE report_rollup_marks m SET rolled_through = c.day - 1
  FROM (SELECT company_id, min((created_at AT TIME ZONE 'America/Sao_Paulo')::date) AS day
        FROM changed GROUP BY company_id) c
  WHERE m.company_id = c.company_id AND m.rolled_through >= c.day;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_ratings_rollup_insert AFTER INSERT ON user_ratings
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_rollup_unmark_ratings();
--> statement-breakpoint
CREATE TRIGGER user_ratings_rollup_delete AFTER DELETE ON user_ratings
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_rollup_unmark_ratings();
