-- Plain PostgreSQL mode (PostgreSQL >= 14): the same relation names and columns as timescale.sql.
-- Raw tables and rollups are range-partitioned by time; a DEFAULT partition catches rows outside
-- the prepared partitions (late or clock-skewed samples) and is drained into a partition when
-- that partition is created. rpcpulse_storage_maintenance() creates partitions ahead of time and
-- drops expired ones; rpcpulse_refresh_rollups() fills the rollups. The worker calls both through
-- runStorageMaintenance() / refreshRollups() from @rpcpulse/db.

CREATE TABLE node_samples (LIKE _shape_node_samples INCLUDING ALL) PARTITION BY RANGE (time);
CREATE TABLE node_remote_ips (LIKE _shape_node_remote_ips INCLUDING ALL) PARTITION BY RANGE (time);
CREATE TABLE probe_results (LIKE _shape_probe_results INCLUDING ALL) PARTITION BY RANGE (time);
DROP TABLE _shape_node_samples, _shape_node_remote_ips, _shape_probe_results;

-- Rollups: sums, counts, min/max and an 11-bucket latency histogram (see timescale.sql).
CREATE TABLE node_samples_1m (
    bucket timestamptz NOT NULL,
    node_id uuid NOT NULL,
    samples integer NOT NULL,
    tcp_samples integer,
    established_sum bigint,
    established_max integer,
    time_wait_sum bigint,
    time_wait_max integer,
    close_wait_max integer,
    syn_recv_max integer,
    fin_wait1_max integer,
    fin_wait2_max integer,
    last_ack_max integer,
    closing_max integer,
    listen_max integer,
    time_wait_in_max integer,
    time_wait_out_max integer,
    sock_inuse_max integer,
    sock_orphan_max integer,
    sock_tw_max integer,
    sock_alloc_max integer,
    sock_mem_max integer,
    listen_overflows bigint,
    listen_drops bigint,
    tw_overflows bigint,
    distinct_remote_ips_max integer,
    conntrack_count_max integer,
    conntrack_max integer,
    open_fds_max integer,
    fd_limit bigint,
    ephemeral_in_use_max integer,
    ephemeral_range integer,
    head_block bigint,
    finalized_block bigint,
    lag_samples integer,
    lag_blocks_sum bigint,
    lag_blocks_max integer,
    head_age_ms_max bigint,
    peers_samples integer,
    peers_sum bigint,
    peers_min smallint,
    syncing_samples integer,
    rpc_samples integer,
    connect_ms_sum double precision,
    ttfb_ms_sum double precision,
    total_ms_sum double precision,
    total_ms_min real,
    total_ms_max real,
    lat_le_5 integer,
    lat_le_10 integer,
    lat_le_25 integer,
    lat_le_50 integer,
    lat_le_100 integer,
    lat_le_250 integer,
    lat_le_500 integer,
    lat_le_1000 integer,
    lat_le_2500 integer,
    lat_le_5000 integer,
    lat_gt_5000 integer,
    host_samples integer,
    cpu_pct_sum double precision,
    cpu_pct_max real,
    load1_sum double precision,
    load1_max real,
    mem_available_min bigint,
    mem_total bigint,
    shmem_max bigint,
    swap_used_max bigint,
    disk_free_min bigint,
    disk_total bigint,
    shm_free_min bigint,
    clock_skew_ms_max integer,
    PRIMARY KEY (node_id, bucket)
) PARTITION BY RANGE (bucket);

CREATE TABLE node_samples_1h (
    bucket timestamptz NOT NULL,
    node_id uuid NOT NULL,
    samples integer NOT NULL,
    tcp_samples integer,
    established_sum bigint,
    established_max integer,
    time_wait_sum bigint,
    time_wait_max integer,
    close_wait_max integer,
    syn_recv_max integer,
    fin_wait1_max integer,
    fin_wait2_max integer,
    last_ack_max integer,
    closing_max integer,
    listen_max integer,
    time_wait_in_max integer,
    time_wait_out_max integer,
    sock_inuse_max integer,
    sock_orphan_max integer,
    sock_tw_max integer,
    sock_alloc_max integer,
    sock_mem_max integer,
    listen_overflows bigint,
    listen_drops bigint,
    tw_overflows bigint,
    distinct_remote_ips_max integer,
    conntrack_count_max integer,
    conntrack_max integer,
    open_fds_max integer,
    fd_limit bigint,
    ephemeral_in_use_max integer,
    ephemeral_range integer,
    head_block bigint,
    finalized_block bigint,
    lag_samples integer,
    lag_blocks_sum bigint,
    lag_blocks_max integer,
    head_age_ms_max bigint,
    peers_samples integer,
    peers_sum bigint,
    peers_min smallint,
    syncing_samples integer,
    rpc_samples integer,
    connect_ms_sum double precision,
    ttfb_ms_sum double precision,
    total_ms_sum double precision,
    total_ms_min real,
    total_ms_max real,
    lat_le_5 integer,
    lat_le_10 integer,
    lat_le_25 integer,
    lat_le_50 integer,
    lat_le_100 integer,
    lat_le_250 integer,
    lat_le_500 integer,
    lat_le_1000 integer,
    lat_le_2500 integer,
    lat_le_5000 integer,
    lat_gt_5000 integer,
    host_samples integer,
    cpu_pct_sum double precision,
    cpu_pct_max real,
    load1_sum double precision,
    load1_max real,
    mem_available_min bigint,
    mem_total bigint,
    shmem_max bigint,
    swap_used_max bigint,
    disk_free_min bigint,
    disk_total bigint,
    shm_free_min bigint,
    clock_skew_ms_max integer,
    PRIMARY KEY (node_id, bucket)
) PARTITION BY RANGE (bucket);

CREATE TABLE probe_results_1m (
    bucket timestamptz NOT NULL,
    endpoint_id uuid NOT NULL,
    vantage_point_id uuid NOT NULL,
    probes integer NOT NULL,
    ok_count integer,
    rate_limited_count integer,
    latency_samples integer,
    dns_ms_sum double precision,
    connect_ms_sum double precision,
    tls_ms_sum double precision,
    ttfb_ms_sum double precision,
    total_ms_sum double precision,
    total_ms_min real,
    total_ms_max real,
    lat_le_5 integer,
    lat_le_10 integer,
    lat_le_25 integer,
    lat_le_50 integer,
    lat_le_100 integer,
    lat_le_250 integer,
    lat_le_500 integer,
    lat_le_1000 integer,
    lat_le_2500 integer,
    lat_le_5000 integer,
    lat_gt_5000 integer,
    head_block_max bigint,
    response_bytes_sum bigint,
    PRIMARY KEY (endpoint_id, vantage_point_id, bucket)
) PARTITION BY RANGE (bucket);

CREATE TABLE probe_results_1h (
    bucket timestamptz NOT NULL,
    endpoint_id uuid NOT NULL,
    vantage_point_id uuid NOT NULL,
    probes integer NOT NULL,
    ok_count integer,
    rate_limited_count integer,
    latency_samples integer,
    dns_ms_sum double precision,
    connect_ms_sum double precision,
    tls_ms_sum double precision,
    ttfb_ms_sum double precision,
    total_ms_sum double precision,
    total_ms_min real,
    total_ms_max real,
    lat_le_5 integer,
    lat_le_10 integer,
    lat_le_25 integer,
    lat_le_50 integer,
    lat_le_100 integer,
    lat_le_250 integer,
    lat_le_500 integer,
    lat_le_1000 integer,
    lat_le_2500 integer,
    lat_le_5000 integer,
    lat_gt_5000 integer,
    head_block_max bigint,
    response_bytes_sum bigint,
    PRIMARY KEY (endpoint_id, vantage_point_id, bucket)
) PARTITION BY RANGE (bucket);

-- Partitioning plan: partition width, how far ahead partitions are prepared, which setting is
-- the retention. Partition bounds are date_bin() buckets from Monday 2000-01-03 UTC.
CREATE TABLE storage_partitioning (
    relation text PRIMARY KEY,
    key_column text NOT NULL,
    width interval NOT NULL,
    ahead interval NOT NULL,
    retention_key text NOT NULL REFERENCES storage_settings (key)
);

INSERT INTO storage_partitioning (relation, key_column, width, ahead, retention_key) VALUES
    ('node_samples', 'time', interval '1 day', interval '3 days', 'raw_retention'),
    ('node_remote_ips', 'time', interval '1 day', interval '3 days', 'raw_retention'),
    ('probe_results', 'time', interval '1 day', interval '3 days', 'raw_retention'),
    ('node_samples_1m', 'bucket', interval '7 days', interval '14 days', 'rollup_1m_retention'),
    ('probe_results_1m', 'bucket', interval '7 days', interval '14 days', 'rollup_1m_retention'),
    ('node_samples_1h', 'bucket', interval '28 days', interval '56 days', 'rollup_1h_retention'),
    ('probe_results_1h', 'bucket', interval '28 days', interval '56 days', 'rollup_1h_retention');

CREATE TABLE node_samples_default PARTITION OF node_samples DEFAULT;
CREATE TABLE node_remote_ips_default PARTITION OF node_remote_ips DEFAULT;
CREATE TABLE probe_results_default PARTITION OF probe_results DEFAULT;
CREATE TABLE node_samples_1m_default PARTITION OF node_samples_1m DEFAULT;
CREATE TABLE probe_results_1m_default PARTITION OF probe_results_1m DEFAULT;
CREATE TABLE node_samples_1h_default PARTITION OF node_samples_1h DEFAULT;
CREATE TABLE probe_results_1h_default PARTITION OF probe_results_1h DEFAULT;

-- Create the partition [p_start, p_end) of p_parent unless it exists, moving any rows of that
-- range out of the default partition first. Returns the new partition's name, or NULL.
CREATE FUNCTION rpcpulse_create_partition(p_parent text, p_key text, p_start timestamptz, p_end timestamptz)
RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    v_name text := p_parent || '_p' || to_char(p_start AT TIME ZONE 'UTC', 'YYYYMMDD');
BEGIN
    IF to_regclass(v_name) IS NOT NULL THEN
        RETURN NULL;
    END IF;
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', v_name, p_parent);
    EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= $1 AND %I < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
        p_parent || '_default', p_key, p_key, v_name) USING p_start, p_end;
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', p_parent, v_name, p_start, p_end);
    RETURN v_name;
END $$;

-- Prepare partitions from one width before p_now to `ahead` after it, drop partitions whose upper
-- bound is older than the retention, delete expired rows from the default partitions and
-- node_latest rows of deleted nodes. Returns one row per action taken. Idempotent.
CREATE FUNCTION rpcpulse_storage_maintenance(p_now timestamptz)
RETURNS TABLE (action text, relation text, detail text)
LANGUAGE plpgsql AS $$
DECLARE
    v_plan record;
    v_part record;
    v_origin constant timestamptz := timestamptz '2000-01-03 00:00:00+00';
    v_start timestamptz;
    v_cutoff timestamptz;
    v_upper timestamptz;
    v_name text;
    v_rows bigint;
BEGIN
    FOR v_plan IN
        SELECT p.relation AS rel, p.key_column, p.width, p.ahead, s.value AS retention
        FROM storage_partitioning p JOIN storage_settings s ON s.key = p.retention_key
        ORDER BY p.relation
    LOOP
        v_cutoff := p_now - v_plan.retention;
        v_start := date_bin(v_plan.width, greatest(p_now - v_plan.width, v_cutoff), v_origin);
        WHILE v_start < p_now + v_plan.ahead LOOP
            v_name := rpcpulse_create_partition(v_plan.rel, v_plan.key_column, v_start, v_start + v_plan.width);
            IF v_name IS NOT NULL THEN
                action := 'create_partition'; relation := v_name;
                detail := format('%s .. %s', v_start, v_start + v_plan.width);
                RETURN NEXT;
            END IF;
            v_start := v_start + v_plan.width;
        END LOOP;

        FOR v_part IN
            SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound
            FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = v_plan.rel::regclass
            ORDER BY c.relname
        LOOP
            CONTINUE WHEN v_part.bound = 'DEFAULT';
            v_upper := substring(v_part.bound FROM 'TO \(''([^'']+)''\)')::timestamptz;
            IF v_upper <= v_cutoff THEN
                EXECUTE format('DROP TABLE %I', v_part.relname);
                action := 'drop_partition'; relation := v_part.relname;
                detail := format('ended %s, retention %s', v_upper, v_plan.retention);
                RETURN NEXT;
            END IF;
        END LOOP;

        EXECUTE format('DELETE FROM %I WHERE %I < $1', v_plan.rel || '_default', v_plan.key_column) USING v_cutoff;
        GET DIAGNOSTICS v_rows = ROW_COUNT;
        IF v_rows > 0 THEN
            action := 'delete_expired'; relation := v_plan.rel || '_default';
            detail := format('%s rows before %s', v_rows, v_cutoff);
            RETURN NEXT;
        END IF;
    END LOOP;
END $$;

-- Materialize the rollup buckets that lie entirely inside [p_from, least(p_to, now())):
-- 1-minute buckets from the raw tables, then 1-hour buckets from the 1-minute rollups.
-- Upserts, so running it again over the same window changes nothing. Returns rows written.
CREATE FUNCTION rpcpulse_refresh_rollups(p_from timestamptz, p_to timestamptz)
RETURNS TABLE (rollup text, buckets bigint)
LANGUAGE plpgsql AS $$
DECLARE
    v_origin constant timestamptz := timestamptz '2000-01-03 00:00:00+00';
    v_end timestamptz := least(p_to, now());
    v_from_1m timestamptz := date_bin(interval '1 minute', p_from, v_origin);
    v_to_1m timestamptz := date_bin(interval '1 minute', v_end, v_origin);
    v_from_1h timestamptz := date_bin(interval '1 hour', p_from, v_origin);
    v_to_1h timestamptz := date_bin(interval '1 hour', v_end, v_origin);
    v_rows bigint;
BEGIN
    IF v_from_1m < p_from THEN v_from_1m := v_from_1m + interval '1 minute'; END IF;
    IF v_from_1h < p_from THEN v_from_1h := v_from_1h + interval '1 hour'; END IF;
    INSERT INTO node_samples_1m (bucket, node_id, samples, tcp_samples, established_sum, established_max, time_wait_sum, time_wait_max, close_wait_max, syn_recv_max, fin_wait1_max, fin_wait2_max, last_ack_max, closing_max, listen_max, time_wait_in_max, time_wait_out_max, sock_inuse_max, sock_orphan_max, sock_tw_max, sock_alloc_max, sock_mem_max, listen_overflows, listen_drops, tw_overflows, distinct_remote_ips_max, conntrack_count_max, conntrack_max, open_fds_max, fd_limit, ephemeral_in_use_max, ephemeral_range, head_block, finalized_block, lag_samples, lag_blocks_sum, lag_blocks_max, head_age_ms_max, peers_samples, peers_sum, peers_min, syncing_samples, rpc_samples, connect_ms_sum, ttfb_ms_sum, total_ms_sum, total_ms_min, total_ms_max, lat_le_5, lat_le_10, lat_le_25, lat_le_50, lat_le_100, lat_le_250, lat_le_500, lat_le_1000, lat_le_2500, lat_le_5000, lat_gt_5000, host_samples, cpu_pct_sum, cpu_pct_max, load1_sum, load1_max, mem_available_min, mem_total, shmem_max, swap_used_max, disk_free_min, disk_total, shm_free_min, clock_skew_ms_max)
    SELECT
        date_bin(interval '1 minute', time, timestamptz '2000-01-03 00:00:00+00') AS bucket,
        node_id,
        count(*)::integer AS samples,
        count(tcp_established)::integer AS tcp_samples,
        sum(tcp_established)::bigint AS established_sum,
        max(tcp_established) AS established_max,
        sum(tcp_time_wait)::bigint AS time_wait_sum,
        max(tcp_time_wait) AS time_wait_max,
        max(tcp_close_wait) AS close_wait_max,
        max(tcp_syn_recv) AS syn_recv_max,
        max(tcp_fin_wait1) AS fin_wait1_max,
        max(tcp_fin_wait2) AS fin_wait2_max,
        max(tcp_last_ack) AS last_ack_max,
        max(tcp_closing) AS closing_max,
        max(tcp_listen) AS listen_max,
        max(time_wait_in) AS time_wait_in_max,
        max(time_wait_out) AS time_wait_out_max,
        max(sock_inuse) AS sock_inuse_max,
        max(sock_orphan) AS sock_orphan_max,
        max(sock_tw) AS sock_tw_max,
        max(sock_alloc) AS sock_alloc_max,
        max(sock_mem) AS sock_mem_max,
        sum(listen_overflows)::bigint AS listen_overflows,
        sum(listen_drops)::bigint AS listen_drops,
        sum(tw_overflows)::bigint AS tw_overflows,
        max(distinct_remote_ips) AS distinct_remote_ips_max,
        max(conntrack_count) AS conntrack_count_max,
        max(conntrack_max) AS conntrack_max,
        max(open_fds) AS open_fds_max,
        min(fd_limit) AS fd_limit,
        max(ephemeral_in_use) AS ephemeral_in_use_max,
        min(ephemeral_range) AS ephemeral_range,
        max(head_block) AS head_block,
        max(finalized_block) AS finalized_block,
        count(lag_blocks)::integer AS lag_samples,
        sum(lag_blocks)::bigint AS lag_blocks_sum,
        max(lag_blocks) AS lag_blocks_max,
        max(head_age_ms) AS head_age_ms_max,
        count(peers)::integer AS peers_samples,
        sum(peers)::bigint AS peers_sum,
        min(peers) AS peers_min,
        count(*) FILTER (WHERE syncing)::integer AS syncing_samples,
        count(total_ms)::integer AS rpc_samples,
        sum(connect_ms::double precision) AS connect_ms_sum,
        sum(ttfb_ms::double precision) AS ttfb_ms_sum,
        sum(total_ms::double precision) AS total_ms_sum,
        min(total_ms) AS total_ms_min,
        max(total_ms) AS total_ms_max,
        count(*) FILTER (WHERE total_ms <= 5)::integer AS lat_le_5,
        count(*) FILTER (WHERE total_ms > 5 AND total_ms <= 10)::integer AS lat_le_10,
        count(*) FILTER (WHERE total_ms > 10 AND total_ms <= 25)::integer AS lat_le_25,
        count(*) FILTER (WHERE total_ms > 25 AND total_ms <= 50)::integer AS lat_le_50,
        count(*) FILTER (WHERE total_ms > 50 AND total_ms <= 100)::integer AS lat_le_100,
        count(*) FILTER (WHERE total_ms > 100 AND total_ms <= 250)::integer AS lat_le_250,
        count(*) FILTER (WHERE total_ms > 250 AND total_ms <= 500)::integer AS lat_le_500,
        count(*) FILTER (WHERE total_ms > 500 AND total_ms <= 1000)::integer AS lat_le_1000,
        count(*) FILTER (WHERE total_ms > 1000 AND total_ms <= 2500)::integer AS lat_le_2500,
        count(*) FILTER (WHERE total_ms > 2500 AND total_ms <= 5000)::integer AS lat_le_5000,
        count(*) FILTER (WHERE total_ms > 5000)::integer AS lat_gt_5000,
        count(cpu_pct)::integer AS host_samples,
        sum(cpu_pct::double precision) AS cpu_pct_sum,
        max(cpu_pct) AS cpu_pct_max,
        sum(load1::double precision) AS load1_sum,
        max(load1) AS load1_max,
        min(mem_available) AS mem_available_min,
        max(mem_total) AS mem_total,
        max(shmem) AS shmem_max,
        max(swap_used) AS swap_used_max,
        min(disk_free) AS disk_free_min,
        max(disk_total) AS disk_total,
        min(shm_free) AS shm_free_min,
        max(abs(clock_skew_ms)) AS clock_skew_ms_max
    FROM node_samples
    WHERE time >= v_from_1m AND time < v_to_1m
    GROUP BY 1, 2
    ON CONFLICT (node_id, bucket) DO UPDATE SET
        samples = EXCLUDED.samples,
        tcp_samples = EXCLUDED.tcp_samples,
        established_sum = EXCLUDED.established_sum,
        established_max = EXCLUDED.established_max,
        time_wait_sum = EXCLUDED.time_wait_sum,
        time_wait_max = EXCLUDED.time_wait_max,
        close_wait_max = EXCLUDED.close_wait_max,
        syn_recv_max = EXCLUDED.syn_recv_max,
        fin_wait1_max = EXCLUDED.fin_wait1_max,
        fin_wait2_max = EXCLUDED.fin_wait2_max,
        last_ack_max = EXCLUDED.last_ack_max,
        closing_max = EXCLUDED.closing_max,
        listen_max = EXCLUDED.listen_max,
        time_wait_in_max = EXCLUDED.time_wait_in_max,
        time_wait_out_max = EXCLUDED.time_wait_out_max,
        sock_inuse_max = EXCLUDED.sock_inuse_max,
        sock_orphan_max = EXCLUDED.sock_orphan_max,
        sock_tw_max = EXCLUDED.sock_tw_max,
        sock_alloc_max = EXCLUDED.sock_alloc_max,
        sock_mem_max = EXCLUDED.sock_mem_max,
        listen_overflows = EXCLUDED.listen_overflows,
        listen_drops = EXCLUDED.listen_drops,
        tw_overflows = EXCLUDED.tw_overflows,
        distinct_remote_ips_max = EXCLUDED.distinct_remote_ips_max,
        conntrack_count_max = EXCLUDED.conntrack_count_max,
        conntrack_max = EXCLUDED.conntrack_max,
        open_fds_max = EXCLUDED.open_fds_max,
        fd_limit = EXCLUDED.fd_limit,
        ephemeral_in_use_max = EXCLUDED.ephemeral_in_use_max,
        ephemeral_range = EXCLUDED.ephemeral_range,
        head_block = EXCLUDED.head_block,
        finalized_block = EXCLUDED.finalized_block,
        lag_samples = EXCLUDED.lag_samples,
        lag_blocks_sum = EXCLUDED.lag_blocks_sum,
        lag_blocks_max = EXCLUDED.lag_blocks_max,
        head_age_ms_max = EXCLUDED.head_age_ms_max,
        peers_samples = EXCLUDED.peers_samples,
        peers_sum = EXCLUDED.peers_sum,
        peers_min = EXCLUDED.peers_min,
        syncing_samples = EXCLUDED.syncing_samples,
        rpc_samples = EXCLUDED.rpc_samples,
        connect_ms_sum = EXCLUDED.connect_ms_sum,
        ttfb_ms_sum = EXCLUDED.ttfb_ms_sum,
        total_ms_sum = EXCLUDED.total_ms_sum,
        total_ms_min = EXCLUDED.total_ms_min,
        total_ms_max = EXCLUDED.total_ms_max,
        lat_le_5 = EXCLUDED.lat_le_5,
        lat_le_10 = EXCLUDED.lat_le_10,
        lat_le_25 = EXCLUDED.lat_le_25,
        lat_le_50 = EXCLUDED.lat_le_50,
        lat_le_100 = EXCLUDED.lat_le_100,
        lat_le_250 = EXCLUDED.lat_le_250,
        lat_le_500 = EXCLUDED.lat_le_500,
        lat_le_1000 = EXCLUDED.lat_le_1000,
        lat_le_2500 = EXCLUDED.lat_le_2500,
        lat_le_5000 = EXCLUDED.lat_le_5000,
        lat_gt_5000 = EXCLUDED.lat_gt_5000,
        host_samples = EXCLUDED.host_samples,
        cpu_pct_sum = EXCLUDED.cpu_pct_sum,
        cpu_pct_max = EXCLUDED.cpu_pct_max,
        load1_sum = EXCLUDED.load1_sum,
        load1_max = EXCLUDED.load1_max,
        mem_available_min = EXCLUDED.mem_available_min,
        mem_total = EXCLUDED.mem_total,
        shmem_max = EXCLUDED.shmem_max,
        swap_used_max = EXCLUDED.swap_used_max,
        disk_free_min = EXCLUDED.disk_free_min,
        disk_total = EXCLUDED.disk_total,
        shm_free_min = EXCLUDED.shm_free_min,
        clock_skew_ms_max = EXCLUDED.clock_skew_ms_max;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    rollup := 'node_samples_1m'; buckets := v_rows; RETURN NEXT;
    INSERT INTO probe_results_1m (bucket, endpoint_id, vantage_point_id, probes, ok_count, rate_limited_count, latency_samples, dns_ms_sum, connect_ms_sum, tls_ms_sum, ttfb_ms_sum, total_ms_sum, total_ms_min, total_ms_max, lat_le_5, lat_le_10, lat_le_25, lat_le_50, lat_le_100, lat_le_250, lat_le_500, lat_le_1000, lat_le_2500, lat_le_5000, lat_gt_5000, head_block_max, response_bytes_sum)
    SELECT
        date_bin(interval '1 minute', time, timestamptz '2000-01-03 00:00:00+00') AS bucket,
        endpoint_id, vantage_point_id,
        count(*)::integer AS probes,
        count(*) FILTER (WHERE ok)::integer AS ok_count,
        count(*) FILTER (WHERE rate_limited)::integer AS rate_limited_count,
        count(total_ms) FILTER (WHERE ok)::integer AS latency_samples,
        sum(dns_ms::double precision) FILTER (WHERE ok) AS dns_ms_sum,
        sum(connect_ms::double precision) FILTER (WHERE ok) AS connect_ms_sum,
        sum(tls_ms::double precision) FILTER (WHERE ok) AS tls_ms_sum,
        sum(ttfb_ms::double precision) FILTER (WHERE ok) AS ttfb_ms_sum,
        sum(total_ms::double precision) FILTER (WHERE ok) AS total_ms_sum,
        min(total_ms) FILTER (WHERE ok) AS total_ms_min,
        max(total_ms) FILTER (WHERE ok) AS total_ms_max,
        count(*) FILTER (WHERE ok AND total_ms <= 5)::integer AS lat_le_5,
        count(*) FILTER (WHERE ok AND total_ms > 5 AND total_ms <= 10)::integer AS lat_le_10,
        count(*) FILTER (WHERE ok AND total_ms > 10 AND total_ms <= 25)::integer AS lat_le_25,
        count(*) FILTER (WHERE ok AND total_ms > 25 AND total_ms <= 50)::integer AS lat_le_50,
        count(*) FILTER (WHERE ok AND total_ms > 50 AND total_ms <= 100)::integer AS lat_le_100,
        count(*) FILTER (WHERE ok AND total_ms > 100 AND total_ms <= 250)::integer AS lat_le_250,
        count(*) FILTER (WHERE ok AND total_ms > 250 AND total_ms <= 500)::integer AS lat_le_500,
        count(*) FILTER (WHERE ok AND total_ms > 500 AND total_ms <= 1000)::integer AS lat_le_1000,
        count(*) FILTER (WHERE ok AND total_ms > 1000 AND total_ms <= 2500)::integer AS lat_le_2500,
        count(*) FILTER (WHERE ok AND total_ms > 2500 AND total_ms <= 5000)::integer AS lat_le_5000,
        count(*) FILTER (WHERE ok AND total_ms > 5000)::integer AS lat_gt_5000,
        max(head_block) AS head_block_max,
        sum(response_bytes)::bigint AS response_bytes_sum
    FROM probe_results
    WHERE time >= v_from_1m AND time < v_to_1m
    GROUP BY 1, 2, 3
    ON CONFLICT (endpoint_id, vantage_point_id, bucket) DO UPDATE SET
        probes = EXCLUDED.probes,
        ok_count = EXCLUDED.ok_count,
        rate_limited_count = EXCLUDED.rate_limited_count,
        latency_samples = EXCLUDED.latency_samples,
        dns_ms_sum = EXCLUDED.dns_ms_sum,
        connect_ms_sum = EXCLUDED.connect_ms_sum,
        tls_ms_sum = EXCLUDED.tls_ms_sum,
        ttfb_ms_sum = EXCLUDED.ttfb_ms_sum,
        total_ms_sum = EXCLUDED.total_ms_sum,
        total_ms_min = EXCLUDED.total_ms_min,
        total_ms_max = EXCLUDED.total_ms_max,
        lat_le_5 = EXCLUDED.lat_le_5,
        lat_le_10 = EXCLUDED.lat_le_10,
        lat_le_25 = EXCLUDED.lat_le_25,
        lat_le_50 = EXCLUDED.lat_le_50,
        lat_le_100 = EXCLUDED.lat_le_100,
        lat_le_250 = EXCLUDED.lat_le_250,
        lat_le_500 = EXCLUDED.lat_le_500,
        lat_le_1000 = EXCLUDED.lat_le_1000,
        lat_le_2500 = EXCLUDED.lat_le_2500,
        lat_le_5000 = EXCLUDED.lat_le_5000,
        lat_gt_5000 = EXCLUDED.lat_gt_5000,
        head_block_max = EXCLUDED.head_block_max,
        response_bytes_sum = EXCLUDED.response_bytes_sum;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    rollup := 'probe_results_1m'; buckets := v_rows; RETURN NEXT;
    INSERT INTO node_samples_1h (bucket, node_id, samples, tcp_samples, established_sum, established_max, time_wait_sum, time_wait_max, close_wait_max, syn_recv_max, fin_wait1_max, fin_wait2_max, last_ack_max, closing_max, listen_max, time_wait_in_max, time_wait_out_max, sock_inuse_max, sock_orphan_max, sock_tw_max, sock_alloc_max, sock_mem_max, listen_overflows, listen_drops, tw_overflows, distinct_remote_ips_max, conntrack_count_max, conntrack_max, open_fds_max, fd_limit, ephemeral_in_use_max, ephemeral_range, head_block, finalized_block, lag_samples, lag_blocks_sum, lag_blocks_max, head_age_ms_max, peers_samples, peers_sum, peers_min, syncing_samples, rpc_samples, connect_ms_sum, ttfb_ms_sum, total_ms_sum, total_ms_min, total_ms_max, lat_le_5, lat_le_10, lat_le_25, lat_le_50, lat_le_100, lat_le_250, lat_le_500, lat_le_1000, lat_le_2500, lat_le_5000, lat_gt_5000, host_samples, cpu_pct_sum, cpu_pct_max, load1_sum, load1_max, mem_available_min, mem_total, shmem_max, swap_used_max, disk_free_min, disk_total, shm_free_min, clock_skew_ms_max)
    SELECT
        date_bin(interval '1 hour', bucket, timestamptz '2000-01-03 00:00:00+00') AS bucket,
        node_id,
        sum(samples)::integer AS samples,
        sum(tcp_samples)::integer AS tcp_samples,
        sum(established_sum)::bigint AS established_sum,
        max(established_max) AS established_max,
        sum(time_wait_sum)::bigint AS time_wait_sum,
        max(time_wait_max) AS time_wait_max,
        max(close_wait_max) AS close_wait_max,
        max(syn_recv_max) AS syn_recv_max,
        max(fin_wait1_max) AS fin_wait1_max,
        max(fin_wait2_max) AS fin_wait2_max,
        max(last_ack_max) AS last_ack_max,
        max(closing_max) AS closing_max,
        max(listen_max) AS listen_max,
        max(time_wait_in_max) AS time_wait_in_max,
        max(time_wait_out_max) AS time_wait_out_max,
        max(sock_inuse_max) AS sock_inuse_max,
        max(sock_orphan_max) AS sock_orphan_max,
        max(sock_tw_max) AS sock_tw_max,
        max(sock_alloc_max) AS sock_alloc_max,
        max(sock_mem_max) AS sock_mem_max,
        sum(listen_overflows)::bigint AS listen_overflows,
        sum(listen_drops)::bigint AS listen_drops,
        sum(tw_overflows)::bigint AS tw_overflows,
        max(distinct_remote_ips_max) AS distinct_remote_ips_max,
        max(conntrack_count_max) AS conntrack_count_max,
        max(conntrack_max) AS conntrack_max,
        max(open_fds_max) AS open_fds_max,
        min(fd_limit) AS fd_limit,
        max(ephemeral_in_use_max) AS ephemeral_in_use_max,
        min(ephemeral_range) AS ephemeral_range,
        max(head_block) AS head_block,
        max(finalized_block) AS finalized_block,
        sum(lag_samples)::integer AS lag_samples,
        sum(lag_blocks_sum)::bigint AS lag_blocks_sum,
        max(lag_blocks_max) AS lag_blocks_max,
        max(head_age_ms_max) AS head_age_ms_max,
        sum(peers_samples)::integer AS peers_samples,
        sum(peers_sum)::bigint AS peers_sum,
        min(peers_min) AS peers_min,
        sum(syncing_samples)::integer AS syncing_samples,
        sum(rpc_samples)::integer AS rpc_samples,
        sum(connect_ms_sum) AS connect_ms_sum,
        sum(ttfb_ms_sum) AS ttfb_ms_sum,
        sum(total_ms_sum) AS total_ms_sum,
        min(total_ms_min) AS total_ms_min,
        max(total_ms_max) AS total_ms_max,
        sum(lat_le_5)::integer AS lat_le_5,
        sum(lat_le_10)::integer AS lat_le_10,
        sum(lat_le_25)::integer AS lat_le_25,
        sum(lat_le_50)::integer AS lat_le_50,
        sum(lat_le_100)::integer AS lat_le_100,
        sum(lat_le_250)::integer AS lat_le_250,
        sum(lat_le_500)::integer AS lat_le_500,
        sum(lat_le_1000)::integer AS lat_le_1000,
        sum(lat_le_2500)::integer AS lat_le_2500,
        sum(lat_le_5000)::integer AS lat_le_5000,
        sum(lat_gt_5000)::integer AS lat_gt_5000,
        sum(host_samples)::integer AS host_samples,
        sum(cpu_pct_sum) AS cpu_pct_sum,
        max(cpu_pct_max) AS cpu_pct_max,
        sum(load1_sum) AS load1_sum,
        max(load1_max) AS load1_max,
        min(mem_available_min) AS mem_available_min,
        max(mem_total) AS mem_total,
        max(shmem_max) AS shmem_max,
        max(swap_used_max) AS swap_used_max,
        min(disk_free_min) AS disk_free_min,
        max(disk_total) AS disk_total,
        min(shm_free_min) AS shm_free_min,
        max(clock_skew_ms_max) AS clock_skew_ms_max
    FROM node_samples_1m
    WHERE bucket >= v_from_1h AND bucket < v_to_1h
    GROUP BY 1, 2
    ON CONFLICT (node_id, bucket) DO UPDATE SET
        samples = EXCLUDED.samples,
        tcp_samples = EXCLUDED.tcp_samples,
        established_sum = EXCLUDED.established_sum,
        established_max = EXCLUDED.established_max,
        time_wait_sum = EXCLUDED.time_wait_sum,
        time_wait_max = EXCLUDED.time_wait_max,
        close_wait_max = EXCLUDED.close_wait_max,
        syn_recv_max = EXCLUDED.syn_recv_max,
        fin_wait1_max = EXCLUDED.fin_wait1_max,
        fin_wait2_max = EXCLUDED.fin_wait2_max,
        last_ack_max = EXCLUDED.last_ack_max,
        closing_max = EXCLUDED.closing_max,
        listen_max = EXCLUDED.listen_max,
        time_wait_in_max = EXCLUDED.time_wait_in_max,
        time_wait_out_max = EXCLUDED.time_wait_out_max,
        sock_inuse_max = EXCLUDED.sock_inuse_max,
        sock_orphan_max = EXCLUDED.sock_orphan_max,
        sock_tw_max = EXCLUDED.sock_tw_max,
        sock_alloc_max = EXCLUDED.sock_alloc_max,
        sock_mem_max = EXCLUDED.sock_mem_max,
        listen_overflows = EXCLUDED.listen_overflows,
        listen_drops = EXCLUDED.listen_drops,
        tw_overflows = EXCLUDED.tw_overflows,
        distinct_remote_ips_max = EXCLUDED.distinct_remote_ips_max,
        conntrack_count_max = EXCLUDED.conntrack_count_max,
        conntrack_max = EXCLUDED.conntrack_max,
        open_fds_max = EXCLUDED.open_fds_max,
        fd_limit = EXCLUDED.fd_limit,
        ephemeral_in_use_max = EXCLUDED.ephemeral_in_use_max,
        ephemeral_range = EXCLUDED.ephemeral_range,
        head_block = EXCLUDED.head_block,
        finalized_block = EXCLUDED.finalized_block,
        lag_samples = EXCLUDED.lag_samples,
        lag_blocks_sum = EXCLUDED.lag_blocks_sum,
        lag_blocks_max = EXCLUDED.lag_blocks_max,
        head_age_ms_max = EXCLUDED.head_age_ms_max,
        peers_samples = EXCLUDED.peers_samples,
        peers_sum = EXCLUDED.peers_sum,
        peers_min = EXCLUDED.peers_min,
        syncing_samples = EXCLUDED.syncing_samples,
        rpc_samples = EXCLUDED.rpc_samples,
        connect_ms_sum = EXCLUDED.connect_ms_sum,
        ttfb_ms_sum = EXCLUDED.ttfb_ms_sum,
        total_ms_sum = EXCLUDED.total_ms_sum,
        total_ms_min = EXCLUDED.total_ms_min,
        total_ms_max = EXCLUDED.total_ms_max,
        lat_le_5 = EXCLUDED.lat_le_5,
        lat_le_10 = EXCLUDED.lat_le_10,
        lat_le_25 = EXCLUDED.lat_le_25,
        lat_le_50 = EXCLUDED.lat_le_50,
        lat_le_100 = EXCLUDED.lat_le_100,
        lat_le_250 = EXCLUDED.lat_le_250,
        lat_le_500 = EXCLUDED.lat_le_500,
        lat_le_1000 = EXCLUDED.lat_le_1000,
        lat_le_2500 = EXCLUDED.lat_le_2500,
        lat_le_5000 = EXCLUDED.lat_le_5000,
        lat_gt_5000 = EXCLUDED.lat_gt_5000,
        host_samples = EXCLUDED.host_samples,
        cpu_pct_sum = EXCLUDED.cpu_pct_sum,
        cpu_pct_max = EXCLUDED.cpu_pct_max,
        load1_sum = EXCLUDED.load1_sum,
        load1_max = EXCLUDED.load1_max,
        mem_available_min = EXCLUDED.mem_available_min,
        mem_total = EXCLUDED.mem_total,
        shmem_max = EXCLUDED.shmem_max,
        swap_used_max = EXCLUDED.swap_used_max,
        disk_free_min = EXCLUDED.disk_free_min,
        disk_total = EXCLUDED.disk_total,
        shm_free_min = EXCLUDED.shm_free_min,
        clock_skew_ms_max = EXCLUDED.clock_skew_ms_max;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    rollup := 'node_samples_1h'; buckets := v_rows; RETURN NEXT;
    INSERT INTO probe_results_1h (bucket, endpoint_id, vantage_point_id, probes, ok_count, rate_limited_count, latency_samples, dns_ms_sum, connect_ms_sum, tls_ms_sum, ttfb_ms_sum, total_ms_sum, total_ms_min, total_ms_max, lat_le_5, lat_le_10, lat_le_25, lat_le_50, lat_le_100, lat_le_250, lat_le_500, lat_le_1000, lat_le_2500, lat_le_5000, lat_gt_5000, head_block_max, response_bytes_sum)
    SELECT
        date_bin(interval '1 hour', bucket, timestamptz '2000-01-03 00:00:00+00') AS bucket,
        endpoint_id, vantage_point_id,
        sum(probes)::integer AS probes,
        sum(ok_count)::integer AS ok_count,
        sum(rate_limited_count)::integer AS rate_limited_count,
        sum(latency_samples)::integer AS latency_samples,
        sum(dns_ms_sum) AS dns_ms_sum,
        sum(connect_ms_sum) AS connect_ms_sum,
        sum(tls_ms_sum) AS tls_ms_sum,
        sum(ttfb_ms_sum) AS ttfb_ms_sum,
        sum(total_ms_sum) AS total_ms_sum,
        min(total_ms_min) AS total_ms_min,
        max(total_ms_max) AS total_ms_max,
        sum(lat_le_5)::integer AS lat_le_5,
        sum(lat_le_10)::integer AS lat_le_10,
        sum(lat_le_25)::integer AS lat_le_25,
        sum(lat_le_50)::integer AS lat_le_50,
        sum(lat_le_100)::integer AS lat_le_100,
        sum(lat_le_250)::integer AS lat_le_250,
        sum(lat_le_500)::integer AS lat_le_500,
        sum(lat_le_1000)::integer AS lat_le_1000,
        sum(lat_le_2500)::integer AS lat_le_2500,
        sum(lat_le_5000)::integer AS lat_le_5000,
        sum(lat_gt_5000)::integer AS lat_gt_5000,
        max(head_block_max) AS head_block_max,
        sum(response_bytes_sum)::bigint AS response_bytes_sum
    FROM probe_results_1m
    WHERE bucket >= v_from_1h AND bucket < v_to_1h
    GROUP BY 1, 2, 3
    ON CONFLICT (endpoint_id, vantage_point_id, bucket) DO UPDATE SET
        probes = EXCLUDED.probes,
        ok_count = EXCLUDED.ok_count,
        rate_limited_count = EXCLUDED.rate_limited_count,
        latency_samples = EXCLUDED.latency_samples,
        dns_ms_sum = EXCLUDED.dns_ms_sum,
        connect_ms_sum = EXCLUDED.connect_ms_sum,
        tls_ms_sum = EXCLUDED.tls_ms_sum,
        ttfb_ms_sum = EXCLUDED.ttfb_ms_sum,
        total_ms_sum = EXCLUDED.total_ms_sum,
        total_ms_min = EXCLUDED.total_ms_min,
        total_ms_max = EXCLUDED.total_ms_max,
        lat_le_5 = EXCLUDED.lat_le_5,
        lat_le_10 = EXCLUDED.lat_le_10,
        lat_le_25 = EXCLUDED.lat_le_25,
        lat_le_50 = EXCLUDED.lat_le_50,
        lat_le_100 = EXCLUDED.lat_le_100,
        lat_le_250 = EXCLUDED.lat_le_250,
        lat_le_500 = EXCLUDED.lat_le_500,
        lat_le_1000 = EXCLUDED.lat_le_1000,
        lat_le_2500 = EXCLUDED.lat_le_2500,
        lat_le_5000 = EXCLUDED.lat_le_5000,
        lat_gt_5000 = EXCLUDED.lat_gt_5000,
        head_block_max = EXCLUDED.head_block_max,
        response_bytes_sum = EXCLUDED.response_bytes_sum;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    rollup := 'probe_results_1h'; buckets := v_rows; RETURN NEXT;

END $$;

SELECT count(*) FROM rpcpulse_storage_maintenance(now());
