import { BADGE_METRICS } from "./badge-metric.js";

/** The endpoint's badges with copyable Markdown and HTML snippets (absolute URLs on APP_BASE_URL). */
export function BadgeEmbeds({ base, endpointId, name }: { base: string; endpointId: string; name: string }) {
  const page = `${base}/directory/endpoints/${endpointId}`;
  return (
    <div className="dir-badges">
      {BADGE_METRICS.map((metric) => {
        const path = `/badge/endpoint/${endpointId}.svg?metric=${metric}`;
        const alt = `${name} ${metric}`;
        const markdown = `[![${alt.replace(/[[\]]/g, "")}](${base}${path})](${page})`;
        const html = `<a href="${page}"><img src="${base}${path}" alt="${alt.replace(/[<>&"]/g, "")}"></a>`;
        return (
          <div key={metric} className="dir-badge-row">
            <div className="dir-badge-preview">
              <img src={path} alt={alt} height={20} data-testid={`badge-${metric}`} />
            </div>
            <div className="dir-snippet">
              <span className="small muted">Markdown</span>
              <code>{markdown}</code>
              <button
                type="button"
                className="copy-btn"
                data-copy={markdown}
                aria-label={`Copy Markdown for the ${metric} badge`}
              >
                Copy
              </button>
            </div>
            <div className="dir-snippet">
              <span className="small muted">HTML</span>
              <code>{html}</code>
              <button
                type="button"
                className="copy-btn"
                data-copy={html}
                aria-label={`Copy HTML for the ${metric} badge`}
              >
                Copy
              </button>
            </div>
          </div>
        );
      })}
    </div>
  );
}
