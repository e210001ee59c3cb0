-- beacon_samples as a plain table (one row per Ethereum node with a consensus client per agent
-- sample); storage maintenance deletes rows past the raw retention.
CREATE TABLE beacon_samples (LIKE _shape_beacon_samples INCLUDING ALL);
DROP TABLE _shape_beacon_samples;
CREATE INDEX beacon_samples_time_idx ON beacon_samples (time);
