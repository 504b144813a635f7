import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/env.js';
import { openDatabase, paths } from '../runtime.js';
import { seedDemoData } from '../seed/demo-data.js';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  seed      Load the demo catalog, packages, memberships and the demo member's data
            (also into a DATABASE_URL database; existing memberships are left alone)
  help      Show this help`;

export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  if (command !== 'seed') {
    console.error(`Unknown command "${command}".\n\n${USAGE}`);
    return 1;
  }
  try {
    parseArgs({ args: rest, options: {}, strict: true, allowPositionals: false });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  const config = loadConfig(process.env, { catalogFile: paths.catalogFile });
  // The CLI shares a running server's embedded PostgreSQL rather than stopping it.
  const database = await openDatabase(config, { reuseRunning: true });
  try {
    await seedDemoData(database.db, config.catalogFile);
    console.log('Demo data loaded.');
    return 0;
  } finally {
    await database.close();
  }
}

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
