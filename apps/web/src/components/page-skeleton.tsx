/**
 * Loading skeletons (loading.tsx): the page's shape in grey while the server waits on the database,
 * so no data page is ever a blank screen. `shell` draws the app's top bar (pages render their own
 * AppShell, so the loading state has none otherwise).
 */
export function PageSkeleton(props: {
  label: string;
  shell?: "app" | "public" | "none";
  tiles?: number;
  rows?: number;
  cards?: number;
}) {
  const rows = props.rows ?? 8;
  const body = (
    <div aria-busy="true" aria-live="polite" data-testid="page-skeleton">
      <p className="sr-only">Loading {props.label}…</p>
      <span className="skeleton title" />
      <span className="skeleton line short" />
      {props.tiles ? (
        <div className="skeleton-tiles">
          {Array.from({ length: props.tiles }, (_, i) => (
            <span key={i} className="skeleton" />
          ))}
        </div>
      ) : null}
      {Array.from({ length: props.cards ?? 1 }, (_, c) => (
        <div key={c} className="card">
          {Array.from({ length: rows }, (_, i) => (
            <span key={i} className="skeleton line" />
          ))}
        </div>
      ))}
    </div>
  );
  if (props.shell === "none") return body;
  return (
    <>
      <header className="topbar">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true" />
          RPC Pulse
        </span>
      </header>
      <main id="main" className="page">
        {body}
      </main>
    </>
  );
}
