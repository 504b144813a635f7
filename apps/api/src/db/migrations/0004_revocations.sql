CREATE TABLE "token_revocations" (
	"key" text PRIMARY KEY NOT NULL,
	"not_before" timestamp with time zone,
	"others_not_before" timestamp with time zone,
	"except_grant" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "token_revocations_updated_idx" ON "token_revocations" USING btree ("updated_at");--> statement-breakpoint
-- Attempt keys are hashes from now on (no email addresses at rest here): older rows cannot match, so they go.
DELETE FROM "attempt_events";
--> statement-breakpoint
-- Reserves one attempt under every key when each is under its limit, in one atomic call: the keys are locked (in a
-- fixed order, so two callers never deadlock), counted within their windows, and either all get a row or none
-- does. Returns the position (1-based) of the first key at its limit, 0 when reserved, and the reserved row ids.
CREATE FUNCTION attempt_reserve(p_keys text[], p_limits integer[], p_windows integer[])
RETURNS TABLE (refused integer, ids bigint[])
LANGUAGE plpgsql AS $$
DECLARE
  i integer;
  n integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(k, 7202611)) FROM (SELECT DISTINCT unnest(p_keys) AS k ORDER BY 1) AS sorted;
  FOR i IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
    SELECT count(*) INTO n FROM attempt_events
      WHERE key = p_keys[i] AND at > clock_timestamp() - make_interval(secs => p_windows[i]);
    IF n >= p_limits[i] THEN
      RETURN QUERY SELECT i, ARRAY[]::bigint[];
      RETURN;
    END IF;
  END LOOP;
  RETURN QUERY WITH inserted AS (
    INSERT INTO attempt_events (key, at) SELECT k, clock_timestamp() FROM unnest(p_keys) AS k RETURNING id
  ) SELECT 0, coalesce(array_agg(id), ARRAY[]::bigint[]) FROM inserted;
END
$$;
