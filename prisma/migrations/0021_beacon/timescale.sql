-- beacon_samples as a hypertable (one row per Ethereum node with a consensus client per agent sample,
-- about 10 s). Small rows, no compression; storage maintenance drops chunks past the raw retention.
CREATE TABLE beacon_samples (LIKE _shape_beacon_samples INCLUDING ALL);
DROP TABLE _shape_beacon_samples;
SELECT create_hypertable('beacon_samples', by_range('time', interval '7 days'));
