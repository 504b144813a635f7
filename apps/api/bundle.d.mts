/** Bundles the server and the CLI into `outdir`, a folder of apps/api (relative to it, or absolute). */
export function bundle(outdir: string): Promise<void>;
