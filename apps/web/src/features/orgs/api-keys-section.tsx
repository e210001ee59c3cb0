import { listApiKeys } from "@rpcpulse/services/orgs";
import { type ServiceContext } from "@rpcpulse/services/context";
import { ACTIONS_COLUMN, DataTable, labelColumns } from "@/components/data-table.js";
import { Time } from "@/components/time.js";
import { getRuntime } from "@/server/runtime.js";
import { ApiKeyCreateForm, RevokeApiKeyButton } from "./api-keys-form.js";

/** Settings → API keys (admins and owners): create, list with prefix/scope/last use/expiry, revoke. */
export async function ApiKeysSection({ ctx }: { ctx: ServiceContext }) {
  const keys = await listApiKeys({ sql: getRuntime().sql }, ctx);
  return (
    <section className="card" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">API keys</h2>
      <p className="small muted">
        For automation: send <span className="mono">Authorization: Bearer rpk_…</span> to{" "}
        <span className="mono">/api/orgs/{ctx.organizationId}/…</span> (described at{" "}
        <a href="/api/orgs/openapi.json">/api/orgs/openapi.json</a>). Keys cannot manage members or keys.
      </p>
      <div className="grid-2">
        <ApiKeyCreateForm slug={ctx.organizationSlug} />
        <DataTable
          testId="api-keys"
          columns={[...labelColumns(["Name", "Key", "Scope", "Last used", "Expires"]), ACTIONS_COLUMN]}
          rowCount={keys.length}
          empty={<p className="muted">No keys yet.</p>}
        >
          {keys.map((k) => (
            <tr key={k.id}>
              <td>{k.name}</td>
              <td className="mono small">{k.prefix}…</td>
              <td>
                <span className="badge">{k.scope}</span>
              </td>
              <td className="small">
                <Time at={k.lastUsedAt} />
              </td>
              <td className="small">{k.state === "active" ? <Time at={k.expiresAt} /> : k.state}</td>
              <td className="actions">
                {k.state === "active" ? (
                  <RevokeApiKeyButton slug={ctx.organizationSlug} keyId={k.id} name={k.name} />
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      </div>
    </section>
  );
}
