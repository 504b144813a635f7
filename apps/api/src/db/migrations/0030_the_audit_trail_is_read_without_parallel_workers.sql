-- The audit trail is read through its indexes: a page, or the few entries a search finds (decision 052). A parallel
-- plan's workers take tens of milliseconds to start for an answer of one, and the planner chooses them for a search
-- whose rows it cannot foresee, as in the one plan each connection keeps for a search of digits. Reads of the trail
-- never ask for parallel workers. Only a brief lock that lets reads and writes go on: safe in a rolling upgrade.
ALTER TABLE "audit_entries" SET (parallel_workers = 0);
