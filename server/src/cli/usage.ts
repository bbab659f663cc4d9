import { GROUPS } from './commands';

/** Each command's own lines (commands/), between the header and the options all share. */
export const USAGE = `Usage: pnpm kol <command> [options]

${GROUPS.flatMap((group) => group.commands.flatMap((command) => command.usage))
  .map((line) => `  ${line}`)
  .join('\n')}

Options for every command:
  --server URL   the running server (default http://127.0.0.1:$PORT, PORT default 8080)
  --actor NAME   who you are, for the audit log (default: your OS user)
  --json         print the server's answer as JSON

The admin token comes from KOL_ADMIN_TOKEN, or from DATA_DIR/admin-token.`;
