import { DefaultFailureConverter } from '@temporalio/common';

/**
 * Failure messages and stack traces travel as an encoded payload (sealed by the payload codec)
 * instead of clear text in history: a provider's refusal text may quote what it was sent. Loaded
 * by path (`failureConverterPath`) because workflow code converts failures inside its sandbox.
 */
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
