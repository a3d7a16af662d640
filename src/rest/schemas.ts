import type { JsonSchema } from './route';

/** Reusable JSON Schemas of path and body values. */
/** Any non-empty slug: one of the wrong form is simply not found (semantics §1.8). */
export const slugParam: JsonSchema = { type: 'string', minLength: 1 };
export const uuidParam: JsonSchema = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
};
export const oneOf = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });
