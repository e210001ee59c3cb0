-- validator_samples as a hypertable (one row per validator per round, a few per minute at most).
CREATE TABLE validator_samples (LIKE _shape_validator_samples INCLUDING ALL);
DROP TABLE _shape_validator_samples;
SELECT create_hypertable('validator_samples', by_range('time', interval '7 days'));
