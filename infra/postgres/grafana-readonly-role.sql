-- Read-only role for Grafana (rpcpulse_grafana). Run by the compose `grafana-role` one-shot after
-- every `migrate`, as the database owner:
--   psql --set=ON_ERROR_STOP=1 --set=grafana_password=... --file=grafana-readonly-role.sql
-- Idempotent. Grafana sees an allow-list of fleet and time-series tables, never the auth tables
-- (users, sessions, accounts, verifications, invitations) nor agent token hashes.

-- Handed to the DO block through a session setting (psql variables are not expanded inside $$).
SET rpcpulse.grafana_password = :'grafana_password';

DO $$
DECLARE
  pw text := current_setting('rpcpulse.grafana_password');
  t text;
  -- Tables and views dashboards may read. Names not (yet) present are skipped, so this file can
  -- list the time-series tables before the migration creating them lands.
  allowed text[] := ARRAY[
    'chains', 'networks', 'nodes', 'public_endpoints', 'vantage_points', 'organizations', 'worker_heartbeats',
    'node_latest', 'node_samples', 'node_remote_ips', 'probe_results',
    'node_samples_1m', 'node_samples_1h', 'probe_results_1m', 'probe_results_1h', 'network_heads',
    'producers', 'producer_samples', 'validator_samples', 'beacon_samples'
  ];
BEGIN
  IF length(pw) < 16 THEN
    RAISE EXCEPTION 'GRAFANA_DB_PASSWORD must be at least 16 characters';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'rpcpulse_grafana') THEN
    EXECUTE format('CREATE ROLE rpcpulse_grafana LOGIN PASSWORD %L', pw);
  ELSE
    EXECUTE format('ALTER ROLE rpcpulse_grafana LOGIN PASSWORD %L', pw);
  END IF;
  ALTER ROLE rpcpulse_grafana NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION CONNECTION LIMIT 10;
  -- Every session is read-only and bounded, whatever Grafana sends.
  ALTER ROLE rpcpulse_grafana SET default_transaction_read_only = on;
  ALTER ROLE rpcpulse_grafana SET statement_timeout = '30s';
  ALTER ROLE rpcpulse_grafana SET idle_in_transaction_session_timeout = '60s';

  EXECUTE format('GRANT CONNECT ON DATABASE %I TO rpcpulse_grafana', current_database());
  GRANT USAGE ON SCHEMA public TO rpcpulse_grafana;
  REVOKE CREATE ON SCHEMA public FROM rpcpulse_grafana;
  REVOKE ALL ON ALL TABLES IN SCHEMA public FROM rpcpulse_grafana;
  FOREACH t IN ARRAY allowed LOOP
    IF to_regclass(format('public.%I', t)) IS NOT NULL THEN
      EXECUTE format('GRANT SELECT ON public.%I TO rpcpulse_grafana', t);
    END IF;
  END LOOP;
END
$$;

RESET rpcpulse.grafana_password;
