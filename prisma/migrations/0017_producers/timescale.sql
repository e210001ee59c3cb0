-- producer_samples as a hypertable (one row per producer per round, a few per minute at most).
CREATE TABLE producer_samples (LIKE _shape_producer_samples INCLUDING ALL);
DROP TABLE _shape_producer_samples;
SELECT create_hypertable('producer_samples', by_range('time', interval '7 days'));
