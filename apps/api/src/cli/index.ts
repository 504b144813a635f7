import { loadConfig } from '../config/env.js';
import { openDatabase, paths } from '../runtime.js';
import { describeStartFailure } from '../start-failure.js';
import { runCli } from './commands.js';

try {
  const config = loadConfig(process.env, { catalogFile: paths.catalogFile });
  const code = await runCli(process.argv.slice(2), {
    config,
    // The CLI shares a running server's embedded PostgreSQL rather than stopping it.
    openDatabase: (options) => openDatabase(config, { reuseRunning: true, ...options }),
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
  process.exit(code);
} catch (error) {
  console.error(describeStartFailure(error));
  process.exit(1);
}
