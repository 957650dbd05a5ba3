/**
 * The served document's shapes as TypeScript types (generated: `npm run openapi:types`), so that a
 * presenter that drops or mistypes a required field fails `tsc` rather than response validation.
 */
import type { components, operations } from './generated/schema';

export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

export type OperationId = keyof operations;

type JsonContent<Part> = Part extends { content: { 'application/json': infer Body } } ? Body : never;

type AnyContent<Part> = Part extends { content: infer Content } ? Content[keyof Content] : never;

/**
 * The body the document accepts for `Op`, in any of its media types (JSON everywhere but the token
 * endpoint, which takes a form too); `undefined` too where the body is optional.
 */
export type RequestBody<Op extends OperationId> =
  | AnyContent<NonNullable<operations[Op]['requestBody']>>
  | (undefined extends operations[Op]['requestBody'] ? undefined : never);

/** The JSON body the document gives `Op` for `Status`. */
export type ResponseBody<Op extends OperationId, Status extends keyof operations[Op]['responses']> = JsonContent<operations[Op]['responses'][Status]>;
