/** Waits `ms`, or less when `stopped` resolves first (the command then returns and the process exits). */
export const pause = (ms: number, stopped: Promise<void>): Promise<void> =>
  Promise.race([new Promise<void>((resolve) => { setTimeout(resolve, ms); }), stopped]);
