-- TimescaleDB mode: hypertables, compression, continuous aggregates and policies.
-- All DDL here is allowed inside a transaction (the aggregates are created WITH NO DATA and
-- filled by their refresh policies, or by refreshRollups()), so this runs atomically.

CREATE TABLE node_samples (LIKE _shape_node_samples INCLUDING ALL);
CREATE TABLE node_remote_ips (LIKE _shape_node_remote_ips INCLUDING ALL);
CREATE TABLE probe_results (LIKE _shape_probe_results INCLUDING ALL);
DROP TABLE _shape_node_samples, _shape_node_remote_ips, _shape_probe_results;

-- One-day chunks: 1,000 nodes x 8,640 samples/day is about 8.6M rows a day, whose chunk indexes
-- stay well under the "active chunk indexes fit in 25% of memory" rule.
SELECT create_hypertable('node_samples', by_range('time', interval '1 day'));
SELECT create_hypertable('node_remote_ips', by_range('time', interval '1 day'));
SELECT create_hypertable('probe_results', by_range('time', interval '1 day'));

ALTER TABLE node_samples SET (timescaledb.compress, timescaledb.compress_segmentby = 'node_id', timescaledb.compress_orderby = 'time DESC');
ALTER TABLE node_remote_ips SET (timescaledb.compress, timescaledb.compress_segmentby = 'node_id', timescaledb.compress_orderby = 'time DESC, ip');
ALTER TABLE probe_results SET (timescaledb.compress, timescaledb.compress_segmentby = 'endpoint_id, vantage_point_id', timescaledb.compress_orderby = 'time DESC');

-- Rollups. Percentiles are not allowed in continuous aggregates, and averages do not re-aggregate,
-- so every rollup keeps sums, counts, min and max, plus an 11-bucket latency histogram
-- (<=5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000 ms, >5000 ms) from which getNodeSeries /
-- getProbeSeries estimate p95. The 1-hour rollups are built on the 1-minute ones.
CREATE MATERIALIZED VIEW node_samples_1m
WITH (timescaledb.continuous, timescaledb.materialized_only = true) AS
SELECT
    time_bucket(interval '1 minute', time) AS bucket,
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
GROUP BY 1, 2
WITH NO DATA;

CREATE MATERIALIZED VIEW node_samples_1h
WITH (timescaledb.continuous, timescaledb.materialized_only = true) AS
SELECT
    time_bucket(interval '1 hour', bucket) AS bucket,
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
GROUP BY 1, 2
WITH NO DATA;

CREATE MATERIALIZED VIEW probe_results_1m
WITH (timescaledb.continuous, timescaledb.materialized_only = true) AS
SELECT
    time_bucket(interval '1 minute', time) AS bucket,
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
GROUP BY 1, 2, 3
WITH NO DATA;

CREATE MATERIALIZED VIEW probe_results_1h
WITH (timescaledb.continuous, timescaledb.materialized_only = true) AS
SELECT
    time_bucket(interval '1 hour', bucket) AS bucket,
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
GROUP BY 1, 2, 3
WITH NO DATA;

-- (Re)create retention, compression and refresh policies from storage_settings. Called here and
-- by setStorageSettings(); safe to call any number of times.
CREATE FUNCTION rpcpulse_apply_storage_policies() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    v_raw interval := (SELECT value FROM storage_settings WHERE key = 'raw_retention');
    v_1m interval := (SELECT value FROM storage_settings WHERE key = 'rollup_1m_retention');
    v_1h interval := (SELECT value FROM storage_settings WHERE key = 'rollup_1h_retention');
    v_compress interval := (SELECT value FROM storage_settings WHERE key = 'compress_after');
    v_rel text;
BEGIN
    FOREACH v_rel IN ARRAY ARRAY['node_samples', 'node_remote_ips', 'probe_results'] LOOP
        PERFORM remove_retention_policy(v_rel, if_exists => true);
        PERFORM add_retention_policy(v_rel, drop_after => v_raw);
        PERFORM remove_compression_policy(v_rel, if_exists => true);
        PERFORM add_compression_policy(v_rel, compress_after => v_compress);
    END LOOP;
    FOREACH v_rel IN ARRAY ARRAY['node_samples_1m', 'probe_results_1m'] LOOP
        PERFORM remove_retention_policy(v_rel, if_exists => true);
        PERFORM add_retention_policy(v_rel, drop_after => v_1m);
        -- Refresh the last 3 hours every minute; the newest, still open minute is left out.
        PERFORM remove_continuous_aggregate_policy(v_rel, if_exists => true);
        PERFORM add_continuous_aggregate_policy(v_rel, start_offset => interval '3 hours',
            end_offset => interval '1 minute', schedule_interval => interval '1 minute');
    END LOOP;
    FOREACH v_rel IN ARRAY ARRAY['node_samples_1h', 'probe_results_1h'] LOOP
        PERFORM remove_retention_policy(v_rel, if_exists => true);
        PERFORM add_retention_policy(v_rel, drop_after => v_1h);
        PERFORM remove_continuous_aggregate_policy(v_rel, if_exists => true);
        PERFORM add_continuous_aggregate_policy(v_rel, start_offset => interval '2 days',
            end_offset => interval '1 hour', schedule_interval => interval '15 minutes');
    END LOOP;
END $$;

SELECT rpcpulse_apply_storage_policies();
