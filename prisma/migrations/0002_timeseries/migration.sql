-- Time series, part shared by both storage modes. The raw tables and rollups themselves are
-- created by timescale.sql (hypertables + continuous aggregates) or plain.sql (partitioned
-- tables + rollup tables); both give them the same names and columns, so queries are written once.

-- Retention and compression settings. Timescale mode turns them into policies
-- (rpcpulse_apply_storage_policies()); plain mode reads them in rpcpulse_storage_maintenance().
-- Change them with setStorageSettings() from @rpcpulse/db, not by hand.
CREATE TABLE storage_settings (
    key text PRIMARY KEY CHECK (key IN ('raw_retention', 'rollup_1m_retention', 'rollup_1h_retention', 'compress_after')),
    value interval NOT NULL CHECK (value > interval '0'),
    updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO storage_settings (key, value) VALUES
    ('raw_retention', interval '30 days'),
    ('rollup_1m_retention', interval '180 days'),
    ('rollup_1h_retention', interval '2 years'),
    ('compress_after', interval '7 days');

-- Pointer to each node's newest sample, maintained by insertNodeSamples() in the same statement
-- as the insert: the fleet overview reads 1,000 nodes with 1,000 primary-key lookups instead of
-- searching every partition or chunk. Not a foreign key to nodes (ingest must not fail on a
-- node deleted mid-batch); rpcpulse maintenance removes rows of deleted nodes.
CREATE TABLE node_latest (
    node_id uuid PRIMARY KEY,
    time timestamptz NOT NULL
);

-- Raw tables are declared once here as "shape" tables; timescale.sql and plain.sql create the real
-- tables with CREATE TABLE ... (LIKE shape INCLUDING ALL) and drop the shapes.
-- Column order puts 8-byte columns first, then 4-, 2- and 1-byte ones (no alignment padding).
-- Metrics are nullable: an agent that cannot read a source (no conntrack, RPC down) sends null.

-- One row per node per agent interval (about 10 s). Counts are gauges at sample time; *_overflows,
-- *_drops are deltas since the previous sample. Idempotent replays: primary key (node_id, time).
CREATE TABLE _shape_node_samples (
    time timestamptz NOT NULL,
    node_id uuid NOT NULL,
    head_time timestamptz,
    head_block bigint,
    finalized_block bigint,
    head_age_ms bigint,
    mem_available bigint,
    mem_total bigint,
    shmem bigint,
    swap_used bigint,
    disk_free bigint,
    disk_total bigint,
    shm_free bigint,
    fd_limit bigint,
    batch_seq bigint,
    tcp_established integer,
    tcp_syn_recv integer,
    tcp_fin_wait1 integer,
    tcp_fin_wait2 integer,
    tcp_time_wait integer,
    tcp_close_wait integer,
    tcp_last_ack integer,
    tcp_closing integer,
    tcp_listen integer,
    time_wait_in integer,
    time_wait_out integer,
    sock_inuse integer,
    sock_orphan integer,
    sock_tw integer,
    sock_alloc integer,
    sock_mem integer,
    listen_overflows integer,
    listen_drops integer,
    tw_overflows integer,
    distinct_remote_ips integer,
    conntrack_count integer,
    conntrack_max integer,
    open_fds integer,
    ephemeral_in_use integer,
    ephemeral_range integer,
    lag_blocks integer,
    clock_skew_ms integer,
    connect_ms real,
    ttfb_ms real,
    total_ms real,
    cpu_pct real,
    load1 real,
    peers smallint,
    syncing boolean,
    PRIMARY KEY (node_id, time)
);

-- Top remote peers of a node per sample (narrow: one row per remote IP).
CREATE TABLE _shape_node_remote_ips (
    time timestamptz NOT NULL,
    node_id uuid NOT NULL,
    ip inet NOT NULL,
    conns integer NOT NULL CHECK (conns >= 0),
    PRIMARY KEY (node_id, time, ip)
);

-- One row per probe of a public endpoint from a vantage point. Latency phases in ms.
CREATE TABLE _shape_probe_results (
    time timestamptz NOT NULL,
    endpoint_id uuid NOT NULL,
    vantage_point_id uuid NOT NULL,
    head_time timestamptz,
    head_block bigint,
    finalized_block bigint,
    response_bytes integer,
    dns_ms real,
    connect_ms real,
    tls_ms real,
    ttfb_ms real,
    total_ms real,
    http_status smallint,
    ok boolean NOT NULL,
    rate_limited boolean NOT NULL DEFAULT false,
    error_class text CHECK (char_length(error_class) <= 64),
    error_message text CHECK (char_length(error_message) <= 512),
    PRIMARY KEY (endpoint_id, vantage_point_id, time)
);
