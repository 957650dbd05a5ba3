import type { ErrorRequestHandler } from 'express';
import { AppError, FieldError, ValidationFailed } from '../../domain/errors';

/**
 * The one translation of express-openapi-validator's errors (AJV keywords and instance paths) into
 * the contract's 422 envelope; no state and no I/O, so it is unit-tested on plain values.
 */

export interface ValidatorItem {
  path: string;
  message: string;
  errorCode?: string;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'string_type', integer: 'int_type', number: 'float_type', boolean: 'bool_type',
  array: 'list_type', object: 'model_attributes_type', null: 'none_required',
};

/** AJV keywords to the FastAPI error type names integrators already branch on. */
function fastApiType(item: ValidatorItem): string {
  const keyword = item.errorCode?.split('.')[0] ?? '';
  switch (keyword) {
    case 'required': return 'missing';
    case 'type': {
      const expected = /must be (\w+)/.exec(item.message)?.[1] ?? '';
      return TYPE_NAMES[expected] ?? 'type_error';
    }
    case 'enum': return 'enum';
    case 'const': return 'literal_error';
    case 'minLength': return 'string_too_short';
    case 'maxLength': return 'string_too_long';
    case 'minimum': return 'greater_than_equal';
    case 'maximum': return 'less_than_equal';
    case 'exclusiveMinimum': return 'greater_than';
    case 'exclusiveMaximum': return 'less_than';
    case 'pattern': return 'string_pattern_mismatch';
    case 'format': return `${/format "([\w-]+)"/.exec(item.message)?.[1] ?? 'format'}_parsing`;
    case 'additionalProperties': case 'unevaluatedProperties': return 'extra_forbidden';
    case 'minItems': return 'too_short';
    case 'maxItems': return 'too_long';
    case 'uniqueItems': return 'list_unique';
    default: return 'value_error';
  }
}

const LOCATION_NAMES: Record<string, string> = { body: 'body', query: 'query', params: 'path', headers: 'header', path: 'path' };

function toLoc(path: string | undefined): (string | number)[] {
  const parts = (path ?? '').replace(/^[./]/, '').split(/[./]/).filter(Boolean);
  return parts.map((part, i) => (i === 0 ? LOCATION_NAMES[part] ?? part : /^\d+$/.test(part) ? Number(part) : part));
}

function valueAt(source: unknown, loc: (string | number)[]): unknown {
  return loc.slice(1).reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), source);
}

/** The validator's errors as the contract's field errors; `body` gives each body error its `input`. */
export function fieldErrorsOf(items: ValidatorItem[], body: unknown): FieldError[] {
  return items.map((item) => {
    const loc = toLoc(item.path);
    const input = loc[0] === 'body' ? valueAt(body, loc) : undefined;
    return { loc, msg: item.message, type: fastApiType(item), ...(input === undefined ? {} : { input }) };
  });
}

/** Turns the validator's errors into the contract's `validation_error` envelope (422, never 400/415). */
export const mapValidatorErrors: ErrorRequestHandler = (err, req, _res, next) => {
  const status = (err as { status?: number }).status;
  const items = (err as { errors?: ValidatorItem[] }).errors;
  if (err instanceof AppError || !Array.isArray(items) || status === undefined || status >= 500) return next(err);
  if (status === 415) {
    return next(new ValidationFailed([{ loc: ['body'], msg: 'Content-Type must be application/json', type: 'model_attributes_type' }], 'Unsupported content type'));
  }
  next(new ValidationFailed(fieldErrorsOf(items, req.body)));
};
