-- Daily ranking rollups (helper rank-perf, issue 13): the 7-day window and the 30-day uptime of a
-- ranking round read whole days here instead of 168 (or 720) hourly rows per endpoint and vantage
-- point; the hours at the edges of a window still come from probe_rank_1h. Same columns as the other
-- ranking rollups; a day is summed from its hours by the ranking job once it has closed (and re-summed
-- when a late probe rewrites one of its hours). Days are date_bin() aligned like the others (UTC
-- midnight). Kept 35 days.
CREATE TABLE probe_rank_1d (LIKE probe_rank_1h INCLUDING ALL);

-- The closed days of the hours already rolled up, so a round after this migration finds them.
INSERT INTO probe_rank_1d
SELECT date_bin(interval '1 day', bucket, timestamptz '2000-01-03 00:00:00+00') AS day, endpoint_id, vantage_point_id,
  sum(probes), sum(ok), sum(answered), sum(answered_error), sum(rate_limited),
  sum(err_timeout), sum(err_connect), sum(err_http), sum(err_rpc), sum(err_other),
  sum(ttfb_n), sum(ttfb_sum), sum(lag_n), sum(lag_sum), sum(lagging), sum(stale), sum(head_regressions),
  sum(ttfb_00), sum(ttfb_01), sum(ttfb_02), sum(ttfb_03), sum(ttfb_04), sum(ttfb_05), sum(ttfb_06), sum(ttfb_07),
  sum(ttfb_08), sum(ttfb_09), sum(ttfb_10), sum(ttfb_11), sum(ttfb_12), sum(ttfb_13), sum(ttfb_14), sum(ttfb_15),
  sum(ttfb_16), sum(ttfb_17), sum(ttfb_18), sum(ttfb_19), sum(ttfb_20), sum(ttfb_21), sum(ttfb_22), sum(ttfb_23),
  sum(ttfb_24), sum(ttfb_25), sum(ttfb_26), sum(ttfb_27), sum(ttfb_28), sum(ttfb_29), sum(ttfb_30), sum(ttfb_31),
  sum(ttfb_32), sum(ttfb_33), sum(ttfb_34), sum(ttfb_35), sum(ttfb_36), sum(ttfb_37), sum(ttfb_38), sum(ttfb_39),
  sum(ttfb_40), sum(ttfb_41), sum(ttfb_42), sum(ttfb_43), sum(ttfb_44), sum(ttfb_45), sum(ttfb_46), sum(ttfb_47),
  sum(ttfb_48), sum(ttfb_49), sum(ttfb_50), sum(ttfb_51), sum(ttfb_52), sum(ttfb_53), sum(ttfb_54), sum(ttfb_55),
  sum(ttfb_56), sum(ttfb_57), sum(ttfb_58), sum(ttfb_59), sum(ttfb_60), sum(ttfb_61), sum(ttfb_62), sum(ttfb_63),
  sum(lag_00), sum(lag_01), sum(lag_02), sum(lag_03), sum(lag_04), sum(lag_05), sum(lag_06), sum(lag_07),
  sum(lag_08), sum(lag_09), sum(lag_10), sum(lag_11), sum(lag_12), sum(lag_13), sum(lag_14), sum(lag_15)
FROM probe_rank_1h
WHERE bucket < date_bin(interval '1 day', now(), timestamptz '2000-01-03 00:00:00+00')
GROUP BY 1, 2, 3;
