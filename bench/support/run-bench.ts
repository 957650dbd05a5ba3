/** Runs a bench's entry point: on failure, the error's stack on stderr and exit code 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  });
}
