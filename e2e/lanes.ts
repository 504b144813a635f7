/**
 * The journeys run in two lanes side by side, each on a product server of its own (its own port and embedded
 * database, both with the demo accounts): a journey may change the demo member's password or end their sessions, and
 * the other lane never sees it. Lane n is Playwright's parallel index n, which a worker keeps for its whole life.
 */
export const LANES = 2;

const firstPort = Number(process.env['E2E_PORT'] ?? 8090);

/** The port of a lane's server. */
export const lanePort = (lane: number) => firstPort + lane;

/** The data folder of a lane's server (E2E_DATA_DIR is decided once, in the runner, and inherited by its workers). */
export const laneDataDir = (lane: number) => `${process.env['E2E_DATA_DIR']}-${lane}`;

/** This worker's lane (Playwright's parallel index, also given to the worker as TEST_PARALLEL_INDEX). */
export const currentLane = () => Number(process.env['TEST_PARALLEL_INDEX'] ?? 0);
