-- A package's removal takes only its own stripe of the catalog's lock (issue 39, decision 045): its statement finds the
-- memberships that use the package, and the memberships' foreign key (ON DELETE RESTRICT) checks again that none does.
-- Both read memberships by their package: without this index each removal scanned the whole table twice.
CREATE INDEX "memberships_discount_package_idx" ON "memberships" USING btree ("discount_package_id");