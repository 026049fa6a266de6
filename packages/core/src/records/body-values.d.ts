/**
 * Readers of loosely typed JSON values, as real clients send them (B8.4–B8.5): numeric strings for
 * integers, `""` for false, `{}` for an empty list. PHP's `empty()` decides what counts as "not provided".
 */
/** True for what PHP's empty() calls empty: absent, null, false, 0, "", "0", [] and {}. */
export declare function isEmptyValue(value: unknown): boolean;
/** True for a missing required parameter: absent, null or an empty string. */
export declare function isMissing(value: unknown): boolean;
/** A JSON object (not an array, not null). */
export declare function isPlainObject(value: unknown): value is Record<string, unknown>;
/** An integer from a JSON number or a numeric string (`"12"`, `" 12 "`, `"+12"`); null otherwise. */
export declare function readInteger(value: unknown): number | null;
/** A positive integer id (PHP intVal + notEmpty); null otherwise. */
export declare function readId(value: unknown): number | null;
/**
 * A boolean flag: JSON booleans, `""` / `"0"` / `0` / `"false"` / `"N"` for false, `"1"` / `1` / `"true"` / `"Y"`
 * for true (case-insensitive). Null for anything else.
 */
export declare function readBoolean(value: unknown): boolean | null;
/** The elements of a list field: an array as it is, an empty object `{}` as no element, null for anything else. */
export declare function readList(value: unknown): readonly unknown[] | null;
