-- A password sign-in's guess is reserved in one statement instead of three (decision 055). The sign-in asked whether
-- this address had failed for the account within the account's window (the pair's count), then reserved the guess
-- under its three limits (attempt_reserve), then counted the account's failures of the last minutes (its slow-down):
-- three round trips, on a machine where each costs both processes a switch. This asks all three in one call, with the
-- same answers: the account's own limit is held only to an address that has failed for it within the account's window
-- (`familiar`), else it is counted and not enforced, as before; `recent` is the account's failures within
-- p_recent_seconds before this guess, when it was reserved. p_keys, p_limits and p_windows are the pair's, the
-- address's and the account's, in that order, none of them null (a null limit would be no limit).
CREATE FUNCTION sign_in_reserve(p_keys text[], p_limits integer[], p_windows integer[], p_recent_seconds integer)
RETURNS TABLE (refused integer, ids bigint[], familiar boolean, recent integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_limits integer[] := p_limits;
  v_familiar boolean;
  v_refused integer;
  v_ids bigint[];
BEGIN
  IF coalesce(cardinality(p_keys), 0) <> 3 OR coalesce(cardinality(p_limits), 0) <> 3
     OR coalesce(cardinality(p_windows), 0) <> 3 OR array_lower(p_keys, 1) <> 1 OR array_lower(p_limits, 1) <> 1
     OR array_lower(p_windows, 1) <> 1 OR array_position(p_keys, NULL) IS NOT NULL
     OR array_position(p_limits, NULL) IS NOT NULL OR array_position(p_windows, NULL) IS NOT NULL
     OR p_recent_seconds IS NULL THEN
    RAISE EXCEPTION 'sign_in_reserve takes three keys, limits and windows: the pair''s, the address''s and the account''s';
  END IF;
  v_familiar := EXISTS (SELECT 1 FROM attempt_events
                        WHERE key = p_keys[1] AND at > clock_timestamp() - make_interval(secs => p_windows[3]));
  IF NOT v_familiar THEN
    v_limits[3] := 2147483647;
  END IF;
  SELECT r.refused, r.ids INTO v_refused, v_ids FROM attempt_reserve(p_keys, v_limits, p_windows) AS r;
  RETURN QUERY SELECT v_refused, v_ids, v_familiar,
    CASE WHEN v_refused = 0 THEN
      (SELECT count(*)::integer - 1 FROM attempt_events
       WHERE key = p_keys[3] AND at > clock_timestamp() - make_interval(secs => p_recent_seconds))
    ELSE 0 END;
END
$$;
