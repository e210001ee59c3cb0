-- TimescaleDB mode: the daily ranking rollup is a hypertable like the other two; old chunks dropped.
SELECT create_hypertable('probe_rank_1d', by_range('bucket', interval '30 days'), migrate_data => true);
SELECT add_retention_policy('probe_rank_1d', drop_after => interval '35 days');
