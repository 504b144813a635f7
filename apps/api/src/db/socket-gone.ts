/**
 * A connect's ENOENT: the Unix socket's file is not there, so no PostgreSQL listens in that folder (decision 042). A
 * missing file anywhere else (a read, an open) is not this.
 */
export const socketGone = (cause: { code?: unknown; syscall?: unknown }): boolean =>
  cause.code === 'ENOENT' && cause.syscall === 'connect';
