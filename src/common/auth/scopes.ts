/** Scope groups and their members (semantics §1.4); groups expand recursively. */
const GROUPS: Record<string, readonly string[]> = {
  'update:user-details': [
    'update:user-details:email',
    'update:user-details:password',
    'update:user-details:username',
    'update:user-details:description',
    'delete:user-details:image',
    'delete:user-details:cover',
  ],
  'user-details': ['read:user-details', 'update:user-details'],
  watchlist: ['read:watchlist', 'update:watchlist'],
  readlist: ['read:readlist', 'update:readlist'],
  export: ['read:export-list'],
  client: [
    'read:client:list',
    'create:client',
    'read:client',
    'update:client',
    'verify:client',
    'delete:client',
  ],
  collection: ['create:collection', 'read:collection', 'update:collection', 'delete:collection'],
  article: ['create:article', 'update:article', 'delete:article', 'read:articles', 'read:articles_top'],
  comment: ['read:comment:score', 'update:comment', 'delete:comment', 'create:comment'],
  edit: ['create:edit', 'update:edit', 'close:edit', 'accept:edit', 'deny:edit'],
  favourite: ['read:favourite', 'create:favourite', 'delete:favourite', 'read:favourite:list'],
  'follow-full': ['read:follow', 'follow', 'unfollow'],
  notification: ['read:notification', 'seen:notification'],
  vote: ['read:vote', 'set:vote'],
  feed: ['read:feed'],
};

function expandOne(name: string, into: Set<string>): void {
  const members = GROUPS[name];
  if (!members) {
    into.add(name);
    return;
  }
  for (const member of members) expandOne(member, into);
}

/** Every individual scope, `read:history` and `upload` included. */
export const ALL_SCOPES: ReadonlySet<string> = (() => {
  const all = new Set<string>(['read:history', 'upload']);
  for (const group of Object.keys(GROUPS)) expandOne(group, all);
  return all;
})();

export function isScopeOrGroup(name: string): boolean {
  return name === 'all' || name in GROUPS || ALL_SCOPES.has(name);
}

/** Expands groups (and `all`) into individual scopes. */
export function expandScopes(names: readonly string[]): Set<string> {
  const result = new Set<string>();
  for (const name of names) {
    if (name === 'all') ALL_SCOPES.forEach((s) => result.add(s));
    else expandOne(name, result);
  }
  return result;
}

/** Whether the granted scopes (groups expanded) cover every required scope. */
export function coversScopes(granted: readonly string[], required: readonly string[]): boolean {
  const expanded = expandScopes(granted);
  return [...expandScopes(required)].every((scope) => expanded.has(scope));
}
