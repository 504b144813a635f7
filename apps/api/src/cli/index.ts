import { loadConfig } from '../config/env.js';
import { openDatabase, paths } from '../runtime.js';
import { describeStartFailure } from '../start-failure.js';
import { runCli } from './commands.js';

/**
 * Ends the process once what it printed has left it: through a pipe, console output is written asynchronously, and
 * `process.exit` would cut a long answer (`users list` of an install with its demo history) short.
 */
async function exitAfterOutput(code: number): Promise<never> {
  await Promise.all(
    [process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))),
  );
  process.exit(code);
}

try {
  const config = loadConfig(process.env, { catalogFile: paths.catalogFile });
  const code = await runCli(process.argv.slice(2), {
    config,
    // The CLI shares a running server's embedded PostgreSQL rather than stopping it.
    openDatabase: (options) => openDatabase(config, { reuseRunning: true, ...options }),
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
  await exitAfterOutput(code);
} catch (error) {
  console.error(describeStartFailure(error));
  await exitAfterOutput(1);
}
