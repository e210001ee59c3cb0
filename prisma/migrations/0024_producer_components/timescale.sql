-- producer_samples: one row per producer per read (every 15 s), about 60 bytes: 400 days of one
-- witness is about 2.3 M rows / 140 MB. 400 days keeps a year of history plus a month to compare a
-- year ago. Plain mode: the maintenance job deletes the same rows (pruneProducerSamples).
SELECT add_retention_policy('producer_samples', drop_after => interval '400 days');
