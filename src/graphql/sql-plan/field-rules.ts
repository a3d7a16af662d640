import { getMetadataStorage } from 'type-graphql';

/** What one class declares for a GraphQL field (./compile.ts decides from the nearest). */
export interface FieldSource {
  /** The field resolver whose object type is exactly this class. */
  resolver: boolean;
  /** The name of the class property (or getter) behind the field, when it is one (`@Field({ name })` renames). */
  property?: string;
}

type Storage = ReturnType<typeof getMetadataStorage>;

const key = (target: unknown, field: string) => ({ target, field });

/**
 * What type-graphql knows of GraphQL fields that decides whether they may be compiled
 * (./compile.ts): the resolvers and class properties behind them, and the rules that run
 * around them. A field guarded by its own `@Authorized` or middleware, on the property,
 * the resolver method or the resolver class, is never compiled: a SQL form cannot apply
 * them, so such a field always executes through its resolver.
 */
export class FieldIndex {
  private readonly resolvers = new Map<unknown, Map<string, { target: unknown; methodName: string }[]>>();
  private readonly properties = new Map<unknown, Map<string, string>>();
  /** Fields and methods with their own `@Authorized` or middleware, by class. */
  private readonly guardedMembers = new Map<unknown, Set<string>>();
  /** Resolver classes with `@Authorized` or middleware on the class. */
  private readonly guardedClasses = new Set<unknown>();
  /** Methods whose only guard is their own `@Authorized()` without roles, by class. */
  private readonly authenticatedOnly = new Map<unknown, Set<string>>();

  private readonly queries: readonly { schemaName: string; target: unknown; methodName: string }[];

  constructor(storage: Storage) {
    this.queries = storage.queries;
    for (const resolver of storage.fieldResolvers) {
      const type = resolver.getObjectType?.();
      if (!type) continue;
      const byName = this.resolvers.get(type) ?? new Map();
      byName.set(resolver.schemaName, [...(byName.get(resolver.schemaName) ?? []), resolver]);
      this.resolvers.set(type, byName);
    }
    for (const field of storage.fields) {
      const byName = this.properties.get(field.target) ?? new Map<string, string>();
      byName.set(field.schemaName, field.name);
      this.properties.set(field.target, byName);
    }
    for (const { target, field } of [
      ...storage.authorizedFields.map((each) => key(each.target, each.fieldName)),
      ...storage.middlewares.map((each) => key(each.target, each.fieldName)),
    ]) {
      this.guardedMembers.set(target, (this.guardedMembers.get(target) ?? new Set()).add(field));
    }
    for (const { target } of [...storage.authorizedResolver, ...storage.resolverMiddlewares])
      this.guardedClasses.add(target);
    for (const { target, fieldName, roles } of storage.authorizedFields) {
      const withMiddleware = storage.middlewares.some(
        (each) => each.target === target && each.fieldName === fieldName,
      );
      if (roles.length === 0 && !withMiddleware)
        this.authenticatedOnly.set(target, (this.authenticatedOnly.get(target) ?? new Set()).add(fieldName));
    }
  }

  /** What `type` itself (not a base class) declares for the field named `name` in the schema. */
  own(type: unknown, name: string): FieldSource {
    return {
      resolver: (this.resolvers.get(type)?.get(name) ?? []).length > 0,
      property: this.properties.get(type)?.get(name),
    };
  }

  /**
   * Whether a guard applies to the field `name` of `type`: on the property behind it or
   * a resolver method of it, declared on any class of the type's chain, or on the
   * resolver class.
   */
  guarded(type: unknown, name: string): boolean {
    const chain = classChain(type);
    const members = new Set(chain.flatMap((each) => this.properties.get(each)?.get(name) ?? []));
    const resolvers = chain.flatMap((each) => this.resolvers.get(each)?.get(name) ?? []);
    return (
      chain.some((each) => [...members].some((member) => this.guardedMembers.get(each)?.has(member))) ||
      resolvers.some((resolver) => this.guardedMethod(resolver))
    );
  }

  /** Whether a guard applies to the root query field `name`: on its method or its resolver class. */
  guardedQuery(name: string): boolean {
    return this.queries
      .filter((query) => query.schemaName === name)
      .some((query) => this.guardedMethod(query));
  }

  /**
   * Whether the root query field `name` has exactly one guard: its method's own
   * `@Authorized()` without roles (required authentication, which a compiled root applies).
   */
  onlyAuthenticatedQuery(name: string): boolean {
    const queries = this.queries.filter((query) => query.schemaName === name);
    return (
      queries.length > 0 &&
      queries.every(({ target, methodName }) => {
        const chain = classChain(target);
        return (
          !chain.some((each) => this.guardedClasses.has(each)) &&
          chain.some((each) => this.authenticatedOnly.get(each)?.has(methodName))
        );
      })
    );
  }

  private guardedMethod({ target, methodName }: { target: unknown; methodName: string }): boolean {
    return classChain(target).some(
      (each) => this.guardedClasses.has(each) || this.guardedMembers.get(each)?.has(methodName),
    );
  }
}

/** A class and its base classes. */
function classChain(type: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = type; typeof current === 'function'; current = Object.getPrototypeOf(current))
    chain.push(current);
  return chain;
}

const indexes = new WeakMap<Storage, FieldIndex>();

/** type-graphql's metadata, indexed once. */
export function fieldIndex(): FieldIndex {
  const storage = getMetadataStorage();
  let index = indexes.get(storage);
  if (!index) {
    index = new FieldIndex(storage);
    indexes.set(storage, index);
  }
  return index;
}
