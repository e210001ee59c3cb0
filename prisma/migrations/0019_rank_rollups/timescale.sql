-- TimescaleDB mode: the ranking rollups become hypertables (the ranking job still writes them; see
-- migration.sql for why they are not continuous aggregates) and Timescale drops old chunks.
SELECT create_hypertable('probe_rank_5m', by_range('bucket', interval '1 day'));
SELECT create_hypertable('probe_rank_1h', by_range('bucket', interval '7 days'));
SELECT add_retention_policy('probe_rank_5m', drop_after => interval '6 hours');
SELECT add_retention_policy('probe_rank_1h', drop_after => interval '35 days');
