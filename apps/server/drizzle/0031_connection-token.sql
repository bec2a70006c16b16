-- Connection tokens become the server's: every connection gets one, unique across the platform.
-- Missing tokens, tokens under 32 characters (guessable) and tokens several connections share
-- (already refused as ambiguous) are replaced by fresh random ones; the admins read the new token
-- on the connections page. Other tokens are kept, so working integrations keep working.
UPDATE "whatsapps" SET "token" = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '') WHERE "token" IS NULL OR length("token") < 32 OR "token" IN (SELECT "token" FROM "whatsapps" WHERE "token" IS NOT NULL GROUP BY "token" HAVING count(*) > 1);--> statement-breakpoint
ALTER TABLE "whatsapps" ALTER COLUMN "token" SET DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');--> statement-breakpoint
ALTER TABLE "whatsapps" ALTER COLUMN "token" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapps_token_key" ON "whatsapps" USING btree ("token");