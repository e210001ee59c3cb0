-- Ranking rollups (helper scale-directory, issue 13): what the ranking needs of every probe, per
-- endpoint, vantage point and bucket, so a ranking round reads 5-minute and hourly sums plus a raw
-- tail instead of seven days of raw probes. Written by the ranking job itself (packages/services
-- directory/rank-rollups.ts) in BOTH storage modes: lag and freshness are measured against the
-- consensus head projected to each probe's answer time (network_heads, packages/prober measureProbeLags),
-- which a continuous aggregate cannot join, so these are worker-maintained tables, not caggs. The job
-- rewrites the recent 5-minute buckets on every run (late agent batches, later decisions), then the
-- closed hours from them; buckets are date_bin() aligned from 2000-01-03 like the other rollups.
--
-- Columns: probes = every probe; ok; answered = some HTTP response; answered_error = answered with
-- HTTP >= 400 or a JSON-RPC error; rate_limited; err_* = failed probes by error class (timeout;
-- connect = dns/connect/tls; http; rpc; other); ttfb_NN = successful probes' time to first byte in
-- log-spaced buckets (bucket 0: <= 1 ms, bucket i: (2^((i-1)/4), 2^(i/4)] ms, bucket 63 open: a
-- quarter octave, quantiles within 19 %); lag_NN = successful probes' lag in blocks (buckets 0..7
-- exact, then [8,12), [12,16), [16,32), [32,64), [64,128), [128,256), [256,1024), >= 1024); lagging /
-- stale = successful probes past the chain's freshness limits (packages/prober rank/freshness.ts).
-- head_regressions = server probes whose head was below the previous server probe of the endpoint.
-- Not foreign keys, like the other time series.

-- 5-minute buckets: the 1 h window and the edges; kept 6 hours.
CREATE TABLE probe_rank_5m (
    bucket timestamptz NOT NULL,
    endpoint_id uuid NOT NULL,
    vantage_point_id uuid NOT NULL,
    probes integer NOT NULL CHECK (probes >= 0),
    ok integer NOT NULL,
    answered integer NOT NULL,
    answered_error integer NOT NULL,
    rate_limited integer NOT NULL,
    err_timeout integer NOT NULL DEFAULT 0,
    err_connect integer NOT NULL DEFAULT 0,
    err_http integer NOT NULL DEFAULT 0,
    err_rpc integer NOT NULL DEFAULT 0,
    err_other integer NOT NULL DEFAULT 0,
    ttfb_n integer NOT NULL DEFAULT 0,
    ttfb_sum double precision NOT NULL DEFAULT 0,
    lag_n integer NOT NULL DEFAULT 0,
    lag_sum double precision NOT NULL DEFAULT 0,
    lagging integer NOT NULL DEFAULT 0,
    stale integer NOT NULL DEFAULT 0,
    head_regressions integer NOT NULL DEFAULT 0,
    ttfb_00 integer NOT NULL DEFAULT 0,
    ttfb_01 integer NOT NULL DEFAULT 0,
    ttfb_02 integer NOT NULL DEFAULT 0,
    ttfb_03 integer NOT NULL DEFAULT 0,
    ttfb_04 integer NOT NULL DEFAULT 0,
    ttfb_05 integer NOT NULL DEFAULT 0,
    ttfb_06 integer NOT NULL DEFAULT 0,
    ttfb_07 integer NOT NULL DEFAULT 0,
    ttfb_08 integer NOT NULL DEFAULT 0,
    ttfb_09 integer NOT NULL DEFAULT 0,
    ttfb_10 integer NOT NULL DEFAULT 0,
    ttfb_11 integer NOT NULL DEFAULT 0,
    ttfb_12 integer NOT NULL DEFAULT 0,
    ttfb_13 integer NOT NULL DEFAULT 0,
    ttfb_14 integer NOT NULL DEFAULT 0,
    ttfb_15 integer NOT NULL DEFAULT 0,
    ttfb_16 integer NOT NULL DEFAULT 0,
    ttfb_17 integer NOT NULL DEFAULT 0,
    ttfb_18 integer NOT NULL DEFAULT 0,
    ttfb_19 integer NOT NULL DEFAULT 0,
    ttfb_20 integer NOT NULL DEFAULT 0,
    ttfb_21 integer NOT NULL DEFAULT 0,
    ttfb_22 integer NOT NULL DEFAULT 0,
    ttfb_23 integer NOT NULL DEFAULT 0,
    ttfb_24 integer NOT NULL DEFAULT 0,
    ttfb_25 integer NOT NULL DEFAULT 0,
    ttfb_26 integer NOT NULL DEFAULT 0,
    ttfb_27 integer NOT NULL DEFAULT 0,
    ttfb_28 integer NOT NULL DEFAULT 0,
    ttfb_29 integer NOT NULL DEFAULT 0,
    ttfb_30 integer NOT NULL DEFAULT 0,
    ttfb_31 integer NOT NULL DEFAULT 0,
    ttfb_32 integer NOT NULL DEFAULT 0,
    ttfb_33 integer NOT NULL DEFAULT 0,
    ttfb_34 integer NOT NULL DEFAULT 0,
    ttfb_35 integer NOT NULL DEFAULT 0,
    ttfb_36 integer NOT NULL DEFAULT 0,
    ttfb_37 integer NOT NULL DEFAULT 0,
    ttfb_38 integer NOT NULL DEFAULT 0,
    ttfb_39 integer NOT NULL DEFAULT 0,
    ttfb_40 integer NOT NULL DEFAULT 0,
    ttfb_41 integer NOT NULL DEFAULT 0,
    ttfb_42 integer NOT NULL DEFAULT 0,
    ttfb_43 integer NOT NULL DEFAULT 0,
    ttfb_44 integer NOT NULL DEFAULT 0,
    ttfb_45 integer NOT NULL DEFAULT 0,
    ttfb_46 integer NOT NULL DEFAULT 0,
    ttfb_47 integer NOT NULL DEFAULT 0,
    ttfb_48 integer NOT NULL DEFAULT 0,
    ttfb_49 integer NOT NULL DEFAULT 0,
    ttfb_50 integer NOT NULL DEFAULT 0,
    ttfb_51 integer NOT NULL DEFAULT 0,
    ttfb_52 integer NOT NULL DEFAULT 0,
    ttfb_53 integer NOT NULL DEFAULT 0,
    ttfb_54 integer NOT NULL DEFAULT 0,
    ttfb_55 integer NOT NULL DEFAULT 0,
    ttfb_56 integer NOT NULL DEFAULT 0,
    ttfb_57 integer NOT NULL DEFAULT 0,
    ttfb_58 integer NOT NULL DEFAULT 0,
    ttfb_59 integer NOT NULL DEFAULT 0,
    ttfb_60 integer NOT NULL DEFAULT 0,
    ttfb_61 integer NOT NULL DEFAULT 0,
    ttfb_62 integer NOT NULL DEFAULT 0,
    ttfb_63 integer NOT NULL DEFAULT 0,
    lag_00 integer NOT NULL DEFAULT 0,
    lag_01 integer NOT NULL DEFAULT 0,
    lag_02 integer NOT NULL DEFAULT 0,
    lag_03 integer NOT NULL DEFAULT 0,
    lag_04 integer NOT NULL DEFAULT 0,
    lag_05 integer NOT NULL DEFAULT 0,
    lag_06 integer NOT NULL DEFAULT 0,
    lag_07 integer NOT NULL DEFAULT 0,
    lag_08 integer NOT NULL DEFAULT 0,
    lag_09 integer NOT NULL DEFAULT 0,
    lag_10 integer NOT NULL DEFAULT 0,
    lag_11 integer NOT NULL DEFAULT 0,
    lag_12 integer NOT NULL DEFAULT 0,
    lag_13 integer NOT NULL DEFAULT 0,
    lag_14 integer NOT NULL DEFAULT 0,
    lag_15 integer NOT NULL DEFAULT 0,
    PRIMARY KEY (endpoint_id, vantage_point_id, bucket)
);
CREATE INDEX probe_rank_5m_bucket_idx ON probe_rank_5m (bucket);

-- Hourly buckets, summed from the 5-minute ones once an hour has closed: the 24 h and 7 d windows; kept 35 days.
CREATE TABLE probe_rank_1h (LIKE probe_rank_5m INCLUDING ALL);

-- Probes stored late (an agent's spooled batch replayed, a backfill): insertProbeResults records, per
-- endpoint, the oldest such probe time here in the same statement; the ranking job's next rollup pass
-- re-measures from there and clears the mark, so a late probe reaches the rollups once.
CREATE TABLE probe_rank_dirty (
    endpoint_id uuid PRIMARY KEY,
    since timestamptz NOT NULL
);
