// Loaded by every workspace's test script (`node --import tsx --import @rpcpulse/config/test-exit-guard
// --test ...`) in place of `--test-force-exit`. That flag made node:test call process.exit() as soon as a
// file's tests ended, while the child's report was still being written to its pipe: the parent then
// counted only part of the file (the advisor's rules file reported 66, 67 or 78 of its 78 tests, with
// exit 0), so a dropped test, passing or failing, went unseen.
//
// Without the flag a test file ends when nothing keeps its event loop alive. A file that leaves a pool,
// a Redis connection, a server or a timer open would then hang its suite, so this guard registers one
// hook on the root test: once every test of the file has ended, an unref'd timer (it never keeps the
// process alive itself) names what is still open and fails the file if it has not exited by then.
import { after } from "node:test";

/** How long a file may take to exit after its last test before its open handles fail it. */
export const EXIT_GRACE_MS = 15_000;

after(() => {
  setTimeout(() => {
    const open = process.getActiveResourcesInfo().filter((kind) => kind !== "TTYWrap");
    process.stderr.write(
      `test-exit-guard: ${process.argv[1] ?? "this test file"} still running ${EXIT_GRACE_MS / 1000} s after its ` +
        `last test; open: ${open.join(", ") || "(none reported)"}. Close them in an after() hook.\n`,
    );
    process.exit(1);
  }, EXIT_GRACE_MS).unref();
});
