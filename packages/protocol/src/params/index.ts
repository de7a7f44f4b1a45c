import { z } from "zod";

/**
 * The only way an integer is written in a query or path parameter: decimal
 * digits in canonical form, `0` or a digit 1-9 followed by digits. No sign,
 * exponent, hexadecimal prefix, fraction, whitespace or leading zero, so every
 * integer has exactly one spelling (and one read-cache entry).
 */
export const INTEGER_PARAM_PATTERN = /^(0|[1-9][0-9]*)$/;

export interface IntegerParamOptions {
  min: number;
  /** Inclusive; default the largest integer a JavaScript number holds exactly. */
  max?: number;
  /** The value when the parameter is absent (published as the parameter's `default`). */
  default?: number;
  /** The message of an out-of-range value; default "`name` must be `min` to `max`" (without `max`: "at least `min`", "at most …"). */
  rangeMessage?: string;
}

/**
 * An integer query or path parameter (`limit`, `page`, `chainId`): the text
 * must match {@link INTEGER_PARAM_PATTERN}, then it is converted and checked
 * against its range; anything else (`1e3`, `0x10`, ` 5`, `+5`, `5.0`, `05`,
 * an empty value) is a validation error naming the parameter. A number (a
 * JSON body field sharing the schema) is checked as it is. Documented as a
 * JSON Schema `integer` with its bounds and default.
 */
export function integerParam(name: string, options: IntegerParamOptions) {
  const { min, max = Number.MAX_SAFE_INTEGER } = options;
  const notDigits = `${name} must be an integer in decimal digits (no sign, exponent, spaces or leading zero)`;
  const bounded = options.max !== undefined;
  const tooSmall =
    options.rangeMessage ??
    (bounded ? `${name} must be ${min} to ${max}` : `${name} must be at least ${min}`);
  const tooLarge =
    options.rangeMessage ?? (bounded ? `${name} must be ${min} to ${max}` : `${name} must be at most ${max}`);
  const schema = z.preprocess(
    (value) =>
      typeof value === "string" && INTEGER_PARAM_PATTERN.test(value)
        ? // Digits past a double's range are still digits: out of range, not malformed.
          Math.min(Number(value), Number.MAX_VALUE)
        : value,
    z
      .number({ error: notDigits })
      .min(min, { error: tooSmall, abort: true })
      .max(max, { error: tooLarge, abort: true })
      .int(notDigits),
  );
  // `prefault`, not `default`: the default goes through the same check and stays in the
  // published input schema (zod drops `default` from the input side of a transforming schema).
  return options.default === undefined ? schema : schema.prefault(options.default);
}
