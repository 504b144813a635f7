-- The audit trail is read without parallel workers (decision 052). The server's connections run each list's generic
-- plan (decision 009), which cannot know how few entries a search finds: past about a million entries the planner
-- gives that plan two workers, which take tens of milliseconds to start for an answer of a few, and on a machine of
-- two cores the reads that count much of the trail ran slower with them too. Only a brief lock that lets reads and
-- writes go on: safe in a rolling upgrade.
ALTER TABLE "audit_entries" SET (parallel_workers = 0);
