-- Re-create the policies from the corrected setting.
SELECT rpcpulse_apply_storage_policies();
