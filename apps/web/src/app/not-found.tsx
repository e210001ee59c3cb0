import Link from "next/link";

export default function NotFound() {
  return (
    <main id="main" className="landing">
      <h1>Not found</h1>
      <p>This page does not exist, or you do not have access to it.</p>
      <div className="actions">
        <Link className="button" href="/app">
          Go to your fleet
        </Link>
      </div>
    </main>
  );
}
