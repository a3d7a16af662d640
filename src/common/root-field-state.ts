import type { GraphQLResolveInfo } from 'graphql';

type ResponsePath = GraphQLResolveInfo['path'];

/** The path of the root field that the field of `info` belongs to. */
function rootFieldPath(info: GraphQLResolveInfo): ResponsePath {
  let path = info.path;
  while (path.prev) path = path.prev;
  return path;
}

/**
 * What one root field of a GraphQL operation established for the fields below it:
 * the caller it authenticated, the reply trees it loaded, whether it serves previews.
 *
 * Such state can be neither parked on nor keyed by the entities served: every root
 * field of a document gets the same instances from the request's identity map, and
 * each must answer exactly as it would alone. Nor by the request: one request runs
 * several root fields. graphql-js gives each root field of an execution its own path
 * object, which the path of every field below it leads back to; the state is keyed
 * by that object, so it lives exactly as long as the execution.
 */
export class RootFieldState<State> {
  private readonly states = new WeakMap<ResponsePath, State>();

  /** `absent` is the state of a root field that records none. */
  constructor(private readonly absent: State) {}

  /** Records the state of the root field being resolved; its resolver passes its own `info`. */
  set(info: GraphQLResolveInfo, state: State): void {
    this.states.set(rootFieldPath(info), state);
  }

  /** The state that the root field above the field of `info` recorded. */
  get(info: GraphQLResolveInfo): State {
    return this.states.get(rootFieldPath(info)) ?? this.absent;
  }
}
