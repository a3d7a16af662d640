import type { JsonSchema } from './route';

/** Reusable JSON Schemas of path and body values. */
export const slugParam: JsonSchema = { type: 'string', minLength: 1, maxLength: 255 };
export const uuidParam: JsonSchema = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
};
export const oneOf = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });
