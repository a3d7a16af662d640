/**
 * The playground's example tabs: what a newcomer sees first when opening `/graphql` in a
 * browser. Each runs as it is against the demo data that `npm start` loads; the tabs
 * that act for a caller do so once the LogIn tab's token replaces the placeholder in
 * their Headers tab.
 *
 * Enum-valued arguments travel in the variables, never as literals in the documents:
 * JSON strings are valid input for a GraphQL enum and for a value-list scalar alike,
 * whereas a quoted literal is refused by an enum and a bare one by a scalar.
 */

/** One tab, as GraphiQL's `defaultTabs` takes it; the operation's name becomes the tab's title. */
export interface PlaygroundExample {
  readonly query: string;
  /** JSON text of the Variables editor. */
  readonly variables?: string;
  /** JSON text of the Headers editor. */
  readonly headers?: string;
}

/** A manga of the demo data (seed and scale of `npm start`) with authors: the one its "Try:" line names. */
export const DEMO_MANGA_SLUG = 'manga-shadow-of-rukaki-0000f0';
/** An anime of the demo data with characters, staff and studios: the anime page tab's. */
export const DEMO_ANIME_SLUG = 'garden-of-nota-ii-000015';
/** The demo account the log-in tab logs in as, with its password. */
export const DEMO_LOGIN = { username: 'demo_user', password: 'demo-password' } as const;
/** What a tab that needs a token holds in its Headers editor until the caller pastes one. */
export const TOKEN_PLACEHOLDER = '<token>';

/** Indented JSON with each array of plain values on one line, as a person would write it. */
const json = (value: unknown): string =>
  JSON.stringify(value, null, 2).replace(
    /\[\s+([^[\]{}]*?)\s+\]/g,
    (_array, items: string) => `[${items.split(/,\s+/).join(', ')}]`,
  );
const tokenHeaders = json({ auth: TOKEN_PLACEHOLDER });

// Comment lines stay within 56 columns: about what the query editor shows of a line at
// half the width of a laptop screen.

// The first tab has neither variables nor headers: GraphiQL 3.9 opens the first tab with
// its query only, leaving the Variables and Headers editors empty until a tab switch.
const mangaPage: PlaygroundExample = {
  query: `# A manga's page, as GET /manga/{slug} serves it
# (contract #16): the record with its authors and their
# roles. The slug is a demo manga's; mangaList has more.
#
# Run it with the ▶ button or Ctrl+Enter. Ctrl+Space
# lists the fields you can add; the book icon (top left)
# opens the schema's docs. More examples in the tabs.
query MangaPage {
  manga(slug: "${DEMO_MANGA_SLUG}") {
    slug
    title_en
    title_ua
    media_type
    status
    year
    score
    authors {
      person {
        slug
        name_en
      }
      roles {
        slug
        name_en
      }
    }
  }
}
`,
};

const novelSearch: PlaygroundExample = {
  query: `# Novel search, as POST /novel answers it (contract #3).
# The filters are the fields of \`input\` (Variables,
# below): lists of values; \`years\` and \`score\` as
# [from, to] with null for an open end; \`sort\` as
# "field:asc|desc" entries; \`query\` for a typo-tolerant
# title search.
query NovelSearch($input: NovelSearchInput) {
  novelSearch(input: $input, page: 1, size: 5) {
    pagination {
      total
      pages
      page
    }
    list {
      slug
      title_en
      media_type
      status
      year
      score
    }
  }
}
`,
  variables: json({
    input: {
      media_type: ['light_novel'],
      status: ['finished', 'ongoing'],
      years: [2000, null],
      sort: ['score:desc'],
    },
  }),
};

const logIn: PlaygroundExample = {
  query: `# A token for the demo account (POST /auth/login does
# the same). Copy the \`secret\` it answers into the
# Headers tab of the next three tabs, in place of
# ${TOKEN_PLACEHOLDER}: their requests then act for that account.
# To make an account of your own: the \`signup\` mutation.
mutation LogIn($input: LoginInput!) {
  login(input: $input) {
    secret
    expiration
  }
}
`,
  variables: json({ input: DEMO_LOGIN }),
};

const watchList: PlaygroundExample = {
  query: `# Your watch list (POST /watch/{username}/list, contract
# #21) with your own entry on each anime in \`watch\`,
# which needs your token in the Headers tab (below): get
# one with the LogIn tab. Without it, \`watch\` is empty.
query MyWatchList(
  $username: String!
  $input: WatchListInput
) {
  watchList(username: $username, input: $input, size: 5) {
    pagination {
      total
      pages
      page
    }
    list {
      status
      episodes
      score
      anime {
        slug
        title_en
        episodes_total
        watch {
          status
          episodes
        }
      }
    }
  }
}
`,
  variables: json({ username: DEMO_LOGIN.username, input: { sort: ['watch_updated:desc'] } }),
  headers: tokenHeaders,
};

const animePage: PlaygroundExample = {
  query: `# An anime's page in one request: the record (as
# GET /anime/{slug}), its characters and its staff (the
# page's tabs), each list paged. Three root fields, one
# SQL statement each.
query AnimePage($slug: String!) {
  anime(slug: $slug) {
    title_en
    episodes_total
    genres { name_en }
    companies { type company { name } }
    stats { completed watching planned }
    review_stats { yes no maybe }
    schedule { episode airing_at }
  }
  animeCharacters(slug: $slug, size: 6) {
    pagination { total }
    list { main character { slug name_en } }
  }
  animeStaff(slug: $slug, size: 6) {
    list {
      weight
      person { slug name_en }
      roles { name_en }
    }
  }
}
`,
  variables: json({ slug: DEMO_ANIME_SLUG }),
};

const profilePage: PlaygroundExample = {
  query: `# A profile's page in one request: the user, their
# list figures and follows, their latest favourite
# anime and a year of activity by day.
query ProfilePage($username: String!) {
  user(username: $username) {
    username
    description
    avatar
  }
  watchStats(username: $username) {
    duration completed watching planned
  }
  followStats(username: $username) {
    followers following
  }
  favourites(
    content_type: anime, username: $username, size: 4
  ) {
    pagination { total }
    list {
      ... on FavouriteAnime {
        slug title_en favourite_created
      }
    }
  }
  userActivity(username: $username) {
    timestamp actions
  }
}
`,
  variables: json({ username: DEMO_LOGIN.username }),
};

const signedIn: PlaygroundExample = {
  query: `# Who is signed in (GET /user/me): the account of
# the token in the Headers tab (from the LogIn tab),
# with its email and the notification types it ignores.
query SignedIn {
  me {
    username
    email
    role
    ignored_notifications
  }
}
`,
  headers: tokenHeaders,
};

const notificationCount: PlaygroundExample = {
  query: `# Live over the WebSocket at /graphql (graphql-ws): your
# count of unseen notifications, once on subscribing,
# then after every change (a new follower, a reply...).
# The token in the Headers tab (from the LogIn tab) goes
# with the connection. The ■ button stops it.
subscription UnseenNotifications {
  notificationCount {
    unseen
  }
}
`,
  headers: tokenHeaders,
};

/** The tabs in the order they open, the first active. */
export const PLAYGROUND_EXAMPLES: readonly PlaygroundExample[] = [
  mangaPage,
  animePage,
  profilePage,
  novelSearch,
  logIn,
  signedIn,
  watchList,
  notificationCount,
];
