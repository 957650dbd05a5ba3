import type { AppError } from '../../domain/errors';

/**
 * Runs `work`, answering a provider's failure of class `failure` with the contract's error (a 502
 * naming the provider, or a 503 to retry) instead of an unhandled 500; any other error passes on.
 */
export async function answeringProviderFailure<T>(failure: abstract new (...args: never[]) => Error, answer: () => AppError, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof failure) throw answer();
    throw err;
  }
}
