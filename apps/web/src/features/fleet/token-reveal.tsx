import { CopyField } from "./copy-field.js";

/** The one time a token exists in the UI: token, the one-line install command, and the other ways in. */
export function TokenReveal({ data }: { data: Record<string, string> }) {
  if (!data.token || !data.installCommand) return null;
  const instance = data.instanceName ?? "node";
  const downloads = `${data.appBaseUrl ?? ""}/downloads`;
  const version = data.agentVersion ?? "";
  return (
    <div className="token-reveal" data-testid="token-reveal">
      <p className="notice info">
        This token is shown once. It is stored only as a hash: if you lose it, rotate the token on the node page.
      </p>
      <CopyField id="agent-token" label="Agent token" value={data.token} />
      <CopyField
        id="install-command"
        label="Install command (run it on the node's host: Linux x86_64 or arm64 with systemd, no Node.js needed)"
        value={data.installCommand}
        multiline
      />
      <p className="small muted">
        It downloads the self-contained agent for the host (<code>uname -m</code>), checks its SHA-256 against{" "}
        <a href={`${downloads}/SHA256SUMS`}>SHA256SUMS</a>, installs <code>/usr/local/bin/rpcpulse-agent</code>, writes{" "}
        <code>/etc/rpcpulse-agent/{instance}.json</code> and its token (root only, 0600), finds the node process, data
        directory and public ports, and starts <code>rpcpulse-agent@{instance}</code>, a hardened systemd unit. Run it
        again to upgrade; add <code>--uninstall</code> to remove everything. Then check what the agent can read:{" "}
        <code>sudo rpcpulse-agent doctor --name {instance}</code>.
      </p>
      <details className="hint-box">
        <summary>Read the script before running it</summary>
        <pre className="mono" data-testid="reviewed-install-command">
          {data.reviewedInstallCommand}
        </pre>
      </details>
      <details className="hint-box">
        <summary>Debian package, or Node.js already on the host</summary>
        <p className="small muted">
          Packages: <a href={`${downloads}/rpcpulse-agent_${version}_amd64.deb`}>amd64</a>,{" "}
          <a href={`${downloads}/rpcpulse-agent_${version}_arm64.deb`}>arm64</a> (
          <code>sudo apt install ./rpcpulse-agent_{version}_amd64.deb</code>); then run the install command above, which
          uses the package&apos;s binary and unit and only adds this node.
        </p>
        {data.foregroundCommand ? (
          <CopyField
            id="foreground-command"
            label="Or try the bundle in the foreground first (Node.js 20+)"
            value={data.foregroundCommand}
            multiline
          />
        ) : null}
      </details>
    </div>
  );
}
