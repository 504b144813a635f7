-- Runs of digits for the member directory's and the audit trail's searches (decision 047): every run of 5 or more
-- ASCII digits in the text, with each of its suffixes of 5 or more, cut to their first 32 digits, as a tsvector's
-- lexemes. A GIN index of it finds the rows holding a given run of 5 digits or more wherever it stands inside a
-- longer one, by a prefix query ('23456':* finds "1234567"). Only pg_catalog functions are called, so the function
-- means the same whatever the search path (a restore sets it empty).
CREATE FUNCTION search_digit_runs(text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  select coalesce(array_to_tsvector(array_agg(substr(r.run, i, 32))), ''::tsvector)
  from regexp_matches($1, '[0-9]{5,}', 'g') as m(parts)
  cross join lateral (select m.parts[1] as run) r
  cross join lateral generate_series(1, length(r.run) - 4) as i
$$;
--> statement-breakpoint
CREATE INDEX "accounts_search_digits_idx" ON "accounts" USING gin (search_digit_runs(("email" || ' ' || coalesce("first_name", '') || ' ' || coalesce("last_name", ''))));--> statement-breakpoint
CREATE INDEX "audit_entries_search_digits_idx" ON "audit_entries" USING gin (search_digit_runs((coalesce("actor_email", '') || ' ' || "action" || ' ' || coalesce("label", ''))));