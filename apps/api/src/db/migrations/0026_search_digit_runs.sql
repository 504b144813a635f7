-- Runs of digits for the member directory's and the audit trail's searches (decision 047): every run of 5 or more
-- ASCII digits in the text, with each of its suffixes of 5 or more, cut to their first 32 digits, as a tsvector's
-- lexemes. A GIN index of it finds the rows holding a given run of 5 digits or more wherever it stands inside a
-- longer one, by a prefix query ('23456':* finds "1234567"). Only pg_catalog functions are called, so the function
-- means the same whatever the search path (a restore sets it empty). PL/pgSQL keeps its statements' plans for the
-- session: a SQL function of several rows was planned again by every insert that called it (0.25 ms an audit entry).
CREATE FUNCTION search_digit_runs(text) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  run text;
  lexemes text[] := '{}';
BEGIN
  FOR run IN SELECT m[1] FROM regexp_matches($1, '[0-9]{5,}', 'g') AS m LOOP
    FOR i IN 1 .. length(run) - 4 LOOP
      lexemes := lexemes || substr(run, i, 32);
    END LOOP;
  END LOOP;
  RETURN array_to_tsvector(lexemes);
END
$$;
--> statement-breakpoint
CREATE INDEX "accounts_search_digits_idx" ON "accounts" USING gin (search_digit_runs(("email" || ' ' || coalesce("first_name", '') || ' ' || coalesce("last_name", ''))));--> statement-breakpoint
CREATE INDEX "audit_entries_search_digits_idx" ON "audit_entries" USING gin (search_digit_runs((coalesce("actor_email", '') || ' ' || "action" || ' ' || coalesce("label", ''))));