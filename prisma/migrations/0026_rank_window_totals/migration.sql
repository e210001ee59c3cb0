-- Running window totals of the ranking rollups (helper h-rank, issue 13). A ranking round summed every
-- window's settled rollup rows again (about 330,000 rows of 97 sums for 3,000 endpoints x 3 regions:
-- the 24 h window's hours, the 7 d and 30 d windows' days and edge hours, the 1 h window's 5-minute
-- buckets), although between two rounds a window only moves by a bucket at each end. Here each range
-- is kept summed per (range key, endpoint, vantage point) and moved by what entered and what left it
-- (packages/db directory/probe-rank-totals.ts); a round reads a few rows per endpoint instead.
--
-- probe_rank_totals: the sums of the rollup rows of one range (key: '1h' = the 1 h window's settled
-- 5-minute buckets, 'hour' = the hour being filled, '24h' / '7d' / '30d' = those windows' settled hours),
-- same columns as probe_rank_1h. A row whose probes are 0 stands for no row (the window sums only
-- have rows with probes). Not foreign keys, like the rollups.
CREATE TABLE probe_rank_totals (
    range_key text NOT NULL,
    endpoint_id uuid NOT NULL,
    vantage_point_id uuid NOT NULL,
    probes integer NOT NULL,
    ok integer NOT NULL,
    answered integer NOT NULL,
    answered_error integer NOT NULL,
    rate_limited integer NOT NULL,
    err_timeout integer NOT NULL,
    err_connect integer NOT NULL,
    err_http integer NOT NULL,
    err_rpc integer NOT NULL,
    err_other integer NOT NULL,
    ttfb_n integer NOT NULL,
    ttfb_sum double precision NOT NULL,
    lag_n integer NOT NULL,
    lag_sum double precision NOT NULL,
    lagging integer NOT NULL,
    stale integer NOT NULL,
    head_regressions integer NOT NULL,
    ttfb_00 integer NOT NULL, ttfb_01 integer NOT NULL, ttfb_02 integer NOT NULL, ttfb_03 integer NOT NULL,
    ttfb_04 integer NOT NULL, ttfb_05 integer NOT NULL, ttfb_06 integer NOT NULL, ttfb_07 integer NOT NULL,
    ttfb_08 integer NOT NULL, ttfb_09 integer NOT NULL, ttfb_10 integer NOT NULL, ttfb_11 integer NOT NULL,
    ttfb_12 integer NOT NULL, ttfb_13 integer NOT NULL, ttfb_14 integer NOT NULL, ttfb_15 integer NOT NULL,
    ttfb_16 integer NOT NULL, ttfb_17 integer NOT NULL, ttfb_18 integer NOT NULL, ttfb_19 integer NOT NULL,
    ttfb_20 integer NOT NULL, ttfb_21 integer NOT NULL, ttfb_22 integer NOT NULL, ttfb_23 integer NOT NULL,
    ttfb_24 integer NOT NULL, ttfb_25 integer NOT NULL, ttfb_26 integer NOT NULL, ttfb_27 integer NOT NULL,
    ttfb_28 integer NOT NULL, ttfb_29 integer NOT NULL, ttfb_30 integer NOT NULL, ttfb_31 integer NOT NULL,
    ttfb_32 integer NOT NULL, ttfb_33 integer NOT NULL, ttfb_34 integer NOT NULL, ttfb_35 integer NOT NULL,
    ttfb_36 integer NOT NULL, ttfb_37 integer NOT NULL, ttfb_38 integer NOT NULL, ttfb_39 integer NOT NULL,
    ttfb_40 integer NOT NULL, ttfb_41 integer NOT NULL, ttfb_42 integer NOT NULL, ttfb_43 integer NOT NULL,
    ttfb_44 integer NOT NULL, ttfb_45 integer NOT NULL, ttfb_46 integer NOT NULL, ttfb_47 integer NOT NULL,
    ttfb_48 integer NOT NULL, ttfb_49 integer NOT NULL, ttfb_50 integer NOT NULL, ttfb_51 integer NOT NULL,
    ttfb_52 integer NOT NULL, ttfb_53 integer NOT NULL, ttfb_54 integer NOT NULL, ttfb_55 integer NOT NULL,
    ttfb_56 integer NOT NULL, ttfb_57 integer NOT NULL, ttfb_58 integer NOT NULL, ttfb_59 integer NOT NULL,
    ttfb_60 integer NOT NULL, ttfb_61 integer NOT NULL, ttfb_62 integer NOT NULL, ttfb_63 integer NOT NULL,
    lag_00 integer NOT NULL, lag_01 integer NOT NULL, lag_02 integer NOT NULL, lag_03 integer NOT NULL,
    lag_04 integer NOT NULL, lag_05 integer NOT NULL, lag_06 integer NOT NULL, lag_07 integer NOT NULL,
    lag_08 integer NOT NULL, lag_09 integer NOT NULL, lag_10 integer NOT NULL, lag_11 integer NOT NULL,
    lag_12 integer NOT NULL, lag_13 integer NOT NULL, lag_14 integer NOT NULL, lag_15 integer NOT NULL,
    PRIMARY KEY (range_key, endpoint_id, vantage_point_id)
);

-- Which bucket range [covered_from, covered_to) of its rollup table each endpoint's totals of a range
-- key hold. An endpoint without a row here (new, or after this migration) has its totals summed from
-- the rollups in full on the next round; so does one whose covered_to lies after the range's new end
-- (the rollup pass rewrote buckets it had added: late probes), and one far behind (a paused job).
CREATE TABLE probe_rank_total_covers (
    range_key text NOT NULL,
    endpoint_id uuid NOT NULL,
    covered_from timestamptz NOT NULL,
    covered_to timestamptz NOT NULL,
    PRIMARY KEY (range_key, endpoint_id)
);
