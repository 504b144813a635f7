-- The server's database role has no UPDATE on audit_entries at all (issue 33, item 7). The two changes the trail
-- allows are these functions, which run as the trail's owner and can do nothing else; the append-only trigger still
-- checks every row they touch.
-- The price-save fold: the same administrator's save of one product's price within a minute becomes the latest
-- `after` of that entry (never of one that was reverted). Answers the entry's id, or null when there is none to fold.
CREATE FUNCTION audit_fold_price_save(p_entity text, p_entity_id text, p_actor_id text, p_product_key text,
                                      p_after jsonb, p_labels jsonb)
RETURNS bigint LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  UPDATE audit_entries SET after = p_after, labels = p_labels
  WHERE id = (
    SELECT e.id FROM audit_entries e
    WHERE e.entity = p_entity AND e.entity_id = p_entity_id AND e.action = 'package-price-changed'
      AND e.actor_id = p_actor_id AND e.at > now() - interval '1 minute'
      AND e.before -> 'products' ? p_product_key
      AND NOT EXISTS (SELECT 1 FROM audit_entries r WHERE r.reverts = e.id)
    ORDER BY e.id DESC LIMIT 1)
  RETURNING id
$$;
--> statement-breakpoint
-- The purge of a closed account: its entries keep what was done, no longer whose it was (the trigger allows it only
-- once the account is gone).
CREATE FUNCTION audit_scrub_closed_member(p_member_id text)
RETURNS void LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  UPDATE audit_entries SET label = NULL WHERE entity = 'member' AND entity_id = p_member_id AND label IS NOT NULL
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_fold_price_save(text, text, text, text, jsonb, jsonb) FROM PUBLIC;
--> statement-breakpoint
REVOKE ALL ON FUNCTION audit_scrub_closed_member(text) FROM PUBLIC;
