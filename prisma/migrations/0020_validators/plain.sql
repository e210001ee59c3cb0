-- validator_samples as a plain table: a few rows per validator per minute does not need partitions.
CREATE TABLE validator_samples (LIKE _shape_validator_samples INCLUDING ALL);
DROP TABLE _shape_validator_samples;
CREATE INDEX validator_samples_time_idx ON validator_samples (time);
