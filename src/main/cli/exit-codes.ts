/** How a `manus` process ends: by how its turn ended, or 2 for a usage error. */
export const EXIT_CODES = {
  finished: 0,
  failed: 1,
  usage: 2,
  cancelled: 130,
  interrupted: 1,
  running: 1,
  waiting: 1,
  idle: 0,
} as const;
