-- producer_samples as a plain table: a few rows per producer per minute does not need partitions.
CREATE TABLE producer_samples (LIKE _shape_producer_samples INCLUDING ALL);
DROP TABLE _shape_producer_samples;
CREATE INDEX producer_samples_time_idx ON producer_samples (time);
