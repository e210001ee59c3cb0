import { CopyField } from "./copy-field.js";
import { SYSTEMD_HINT } from "./install-command.js";

/** The one time a token exists in the UI: token, one-line install command, foreground variant. */
export function TokenReveal({ data }: { data: Record<string, string> }) {
  if (!data.token || !data.installCommand) return null;
  return (
    <div className="token-reveal" data-testid="token-reveal">
      <p className="notice info">
        This token is shown once. It is stored only as a hash: if you lose it, rotate the token on the node page.
      </p>
      <CopyField id="agent-token" label="Agent token" value={data.token} />
      <CopyField
        id="install-command"
        label="Install command (run on the node's host)"
        value={data.installCommand}
        multiline
      />
      {data.foregroundCommand ? (
        <CopyField
          id="foreground-command"
          label="Or try it in the foreground first"
          value={data.foregroundCommand}
          multiline
        />
      ) : null}
      <details className="hint-box">
        <summary>First time on this host? Install the agent and its systemd unit</summary>
        <p className="small muted">
          Needs Node.js 20+. Copy <code>rpcpulse-agent.mjs</code> and <code>rpcpulse-agent.service</code> (from{" "}
          <code>apps/agent/dist</code> and <code>apps/agent/packaging</code>) to the host, then:
        </p>
        <pre className="mono">{SYSTEMD_HINT}</pre>
        <p className="small muted">
          The unit runs as a transient user with a read-only filesystem and reads the config and token written by the
          command above. <code>systemctl reload rpcpulse-agent</code> re-reads them after a token rotation.
        </p>
      </details>
    </div>
  );
}
