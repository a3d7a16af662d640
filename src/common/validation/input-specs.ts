import type { ClassType } from 'type-graphql';
import type { ObjectSpec } from './json-schema';

const specs = new Map<ClassType, ObjectSpec>();

/**
 * Ties a GraphQL input type to the JSON Schema of its REST body, so that both doors
 * check one request with the same rules and report the same first violation.
 */
export function registerInputSpec(input: ClassType, spec: ObjectSpec): ObjectSpec {
  specs.set(input, spec);
  return spec;
}

export function inputSpecOf(type: unknown): ObjectSpec | undefined {
  return specs.get(type as ClassType);
}

/** Every registered input type with its spec (the agreement test compares the two declarations). */
export function registeredInputSpecs(): ReadonlyMap<ClassType, ObjectSpec> {
  return specs;
}
