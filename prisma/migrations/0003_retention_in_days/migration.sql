-- 0002 stored the 1-hour rollup retention as '2 years', which PostgreSQL counts as 730.5 days
-- (365.25-day years) in epoch arithmetic and as 720 days (30-day months) in comparisons.
-- Retention is managed in whole days (setStorageSettings), so make it exactly 730 days.
UPDATE storage_settings
SET value = interval '730 days', updated_at = now()
WHERE key = 'rollup_1h_retention' AND value = interval '2 years';
