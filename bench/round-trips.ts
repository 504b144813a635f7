// `npm run bench:round-trips` (decision 042): what one statement's round trip to the embedded PostgreSQL costs the
// server's process over loopback TCP and over the cluster's Unix socket, measured in the same cluster, in turns.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../apps/api/src/db/embedded.js';
import { median } from './median.js';
import { count } from './count.js';

const CONNECTIONS = count('BENCH_CONNECTIONS', 10);
/** Each connection sends as many: the total is rounded up to a multiple of the connections. */
const EACH = Math.ceil(count('BENCH_STATEMENTS', 20_000) / CONNECTIONS);
const STATEMENTS = EACH * CONNECTIONS;
const ROUNDS = count('BENCH_ROUNDS', 3);

/** Statements per second and this process's CPU per statement, for one named single-row read sent again and again. */
async function measure(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
  try {
    await pool.query('create table if not exists round_trip (id int primary key, v int)');
    await pool.query('insert into round_trip values (1, 0) on conflict do nothing');
    const read = { name: 'round_trip_read', text: 'select v from round_trip where id = $1', values: [1] };
    // Every connection opened and its statement prepared before the clock starts.
    await Promise.all(Array.from({ length: CONNECTIONS }, () => pool.query(read)));
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        for (let i = 0; i < EACH; i++) await pool.query(read);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    return { perSecond: STATEMENTS / seconds, cpuMicros: (used.user + used.system) / STATEMENTS };
  } finally {
    await pool.end();
  }
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ums-round-trips-'));
await fs.chmod(dataDir, 0o755);
const embedded = await startEmbeddedPostgres({ dataDir });
try {
  const socket = new URL(embedded.url);
  if (!socket.searchParams.get('host')) throw new Error(`The cluster in ${dataDir} has no Unix socket to measure`);
  const tcp = new URL(socket);
  tcp.searchParams.delete('host');
  const results = {
    tcp: [] as Awaited<ReturnType<typeof measure>>[],
    socket: [] as Awaited<ReturnType<typeof measure>>[],
  };
  for (let round = 0; round < ROUNDS; round++) {
    results.tcp.push(await measure(tcp.toString()));
    results.socket.push(await measure(socket.toString()));
  }
  console.info(
    `${STATEMENTS} named single-row reads from ${CONNECTIONS} connections, median of ${ROUNDS} rounds in turns, on ${os.cpus().length} cores:`,
  );
  for (const [name, rounds] of Object.entries(results)) {
    const perSecond = median(rounds.map((r) => r.perSecond));
    const cpu = median(rounds.map((r) => r.cpuMicros));
    console.info(
      `  ${name.padEnd(6)} ${Math.round(perSecond)} statements/s, ${cpu.toFixed(1)} µs of this process's CPU each`,
    );
  }
} finally {
  await embedded.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}
