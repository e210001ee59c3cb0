import { RPCPULSE_VERSION } from "@rpcpulse/config";
import { UsageError } from "./config/load.js";
import { collectCommand } from "./commands/collect.js";
import { schemaCommand } from "./commands/schema.js";

const HELP = `rpcpulse-agent ${RPCPULSE_VERSION}: RPC node agent of RPC Pulse

Usage: rpcpulse-agent <command> [options]

Commands:
  collect [--once]   collect samples and print them as JSON (nothing is sent)
  run                collect every interval and push batches to the ingest API (spooled on disk)
  discover           find the node's process, data directories and public ports (--write: into the config)
  doctor             what the agent can and cannot read on this host, and why, with the fix
  schema             print the wire format's JSON Schema
  version            print the version

Run "rpcpulse-agent <command> --help" for the options.`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "collect":
        return await collectCommand(rest, process.stdout);
      case "run": {
        const { runCommand } = await import("./commands/run.js");
        return await runCommand(rest);
      }
      case "discover": {
        const { discoverCommand } = await import("./commands/discover.js");
        return discoverCommand(rest, process.stdout);
      }
      case "doctor": {
        const { doctorCommand } = await import("./commands/doctor.js");
        return await doctorCommand(rest, process.stdout);
      }
      case "schema":
        return schemaCommand(process.stdout);
      case "version":
      case "--version":
        process.stdout.write(`${RPCPULSE_VERSION}\n`);
        return 0;
      case undefined:
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(`${HELP}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`rpcpulse-agent: ${error.message}\nRun "rpcpulse-agent --help" for usage.\n`);
      return 2;
    }
    process.stderr.write(
      `rpcpulse-agent: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`rpcpulse-agent: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
