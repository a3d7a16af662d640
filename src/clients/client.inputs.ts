import { Field, InputType } from 'type-graphql';
import { registerInputSpec } from '../common/validation/input-specs';
import type { JsonSchema, ObjectSpec } from '../common/validation/json-schema';
import { booleanField, optionalField } from '../common/validation/schemas';
import { uuidParam } from '../rest/schemas';

// ---------------------------------------------------------------------------
// Text cleaning (semantics §2 #12): U+2800 and U+FFF4 are removed, then whitespace
// is trimmed, and the bounds apply to what is left. The JSON Schemas below say the
// same thing as patterns, so that both doors reject a bad value as a validation
// error (step 2) and the service only ever cleans values that are known to fit.

const REMOVED = '\\u2800\\uFFF4';

/** The text as stored: U+2800 and U+FFF4 removed, whitespace trimmed (JS `\s`, as in the pattern). */
export function cleanText(value: string): string {
  return value.replace(/[\u2800\uFFF4]/g, '').trim();
}

/**
 * A string whose cleaned text has `min`..`max` characters (code points; `min` ≥ 2):
 * a first and a last character that are neither whitespace nor removed, and between
 * them `min − 2`..`max − 2` kept characters, removed ones allowed anywhere.
 */
export const cleanedText = (min: number, max: number): JsonSchema => ({
  type: 'string',
  pattern:
    `^[\\s${REMOVED}]*[^\\s${REMOVED}](?:[${REMOVED}]*[^${REMOVED}]){${min - 2},${max - 2}}?` +
    `[${REMOVED}]*[^\\s${REMOVED}][\\s${REMOVED}]*$`,
});

// ---------------------------------------------------------------------------
// Endpoints (semantics §2 #12, §7.18): an absolute URL, not `javascript:`, `data:` or
// `file:`, at most 128 characters once a bare http(s) host has gained its `/`.

/** `word` in any letter case, as a pattern (schemes are case-insensitive). */
const anyCase = (word: string): string =>
  [...word].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('');

const NON_ASCII = '\\u00A0-\\u{10FFFF}';
/** RFC 3986 characters (unreserved, reserved, `%`) plus non-ASCII text (IRIs); no spaces or controls. */
const URL_CHAR = `[A-Za-z0-9\\-._~:/?#\\[\\]@!$&'()*+,;=%${NON_ASCII}]`;
const LABEL_CHAR = `[A-Za-z0-9\\-_~!$&'()*+,;=${NON_ASCII}]`;
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const PORT = '(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})';
/**
 * Schemes whose URLs need a host (the WHATWG "special" schemes but `file`): they must
 * have `//host`, the host being an IPv6 literal, a dotted IPv4 address or a name
 * whose last label is not a number (a URL parser reads those as broken IPv4).
 */
const SPECIAL_SCHEME = `(?:${['https', 'http', 'wss', 'ws', 'ftp'].map(anyCase).join('|')})`;
const HOST =
  `(?:\\[[0-9A-Fa-f:.]+\\]|(?:${OCTET}\\.){3}${OCTET}|` +
  `(?:${LABEL_CHAR}+\\.)*(?!(?:0[xX][0-9A-Fa-f]*|[0-9]+)\\.?(?:[:/?#]|$))${LABEL_CHAR}+\\.?)`;
const AUTHORITY = `(?:[A-Za-z0-9\\-._~!$&'()*+,;=:%${NON_ASCII}]*@)?${HOST}(?::${PORT}?)?`;
const ABSOLUTE_URL =
  `^(?:${SPECIAL_SCHEME}://${AUTHORITY}(?:[/?#]${URL_CHAR}*)?` +
  `|(?!${SPECIAL_SCHEME}:)[A-Za-z][A-Za-z0-9+.\\-]*:${URL_CHAR}+)$`;
const FORBIDDEN_SCHEME = `^(?:${['javascript', 'data', 'file'].map(anyCase).join('|')}):`;
/** `http(s)://host[:port]` with no path, query or fragment: normalisation appends `/`. */
const BARE_HTTP_HOST = /^[hH][tT][tT][pP][sS]?:\/\/[^/?#]+$/;

export const ENDPOINT_MAX_LENGTH = 128;

export const endpointField: JsonSchema = {
  type: 'string',
  maxLength: ENDPOINT_MAX_LENGTH,
  pattern: ABSOLUTE_URL,
  not: {
    anyOf: [
      { type: 'string', pattern: FORBIDDEN_SCHEME },
      // A bare host of 128 characters would have 129 after normalisation.
      { type: 'string', pattern: BARE_HTTP_HOST.source, minLength: ENDPOINT_MAX_LENGTH },
    ],
  },
};

/** The endpoint as stored: a bare http(s) host gains a trailing `/`; anything else is kept as sent. */
export function normalizeEndpoint(value: string): string {
  return BARE_HTTP_HOST.test(value) ? `${value}/` : value;
}

export const NAME_LENGTH = { min: 3, max: 128 } as const;
export const DESCRIPTION_LENGTH = { min: 3, max: 512 } as const;

const nameField = cleanedText(NAME_LENGTH.min, NAME_LENGTH.max);
const descriptionField = cleanedText(DESCRIPTION_LENGTH.min, DESCRIPTION_LENGTH.max);

// ---------------------------------------------------------------------------
// Bodies, in the spec's field order (§1.1.1), each tied to its GraphQL input.

/** POST /client (semantics §3.2): every field required, rules as in #12. */
export const CREATE_CLIENT_BODY: ObjectSpec = {
  properties: { name: nameField, description: descriptionField, endpoint: endpointField },
  required: ['name', 'description', 'endpoint'],
};

/** #12 PUT /client/{client_reference}: null (or omitted) leaves a field unchanged. */
export const UPDATE_CLIENT_BODY: ObjectSpec = {
  properties: {
    name: optionalField(nameField),
    description: optionalField(descriptionField),
    endpoint: optionalField(endpointField),
    revoke_secret: booleanField,
  },
};

/** POST /client/all: an optional name substring. */
export const CLIENT_SEARCH_BODY: ObjectSpec = {
  properties: { query: optionalField({ type: 'string' }) },
};

/** POST /auth/token/request/{client_reference}: scope names are checked by the service (400 codes). */
export const TOKEN_REQUEST_BODY: ObjectSpec = {
  properties: { scope: { type: 'array', items: { type: 'string' } } },
  required: ['scope'],
};

/** POST /auth/token: the request to exchange and the client's secret. */
export const TOKEN_EXCHANGE_BODY: ObjectSpec = {
  properties: { request_reference: uuidParam, client_secret: { type: 'string' } },
  required: ['request_reference', 'client_secret'],
};

@InputType({ description: 'POST /client body (semantics §3.2).' })
export class CreateClientInput {
  @Field(() => String, { description: 'U+2800 and U+FFF4 removed, trimmed: 3..128 characters.' })
  name!: string;

  @Field(() => String, { description: 'Cleaned as `name`: 3..512 characters.' })
  description!: string;

  @Field(() => String, {
    description: 'An absolute URL (not javascript:, data: or file:), at most 128 characters.',
  })
  endpoint!: string;
}
registerInputSpec(CreateClientInput, CREATE_CLIENT_BODY);

@InputType({ description: '#12 PUT /client/{client_reference} body: only non-null fields are applied.' })
export class UpdateClientInput {
  @Field(() => String, { nullable: true, description: 'As in CreateClientInput; null keeps the name.' })
  name?: string | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => String, { nullable: true })
  endpoint?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'When true a new secret replaces the old one (issued tokens stay valid). Default false.',
  })
  revoke_secret?: boolean;
}
registerInputSpec(UpdateClientInput, UPDATE_CLIENT_BODY);

@InputType({ description: 'POST /client/all body.' })
export class ClientSearchInput {
  @Field(() => String, { nullable: true, description: 'A substring of the name, ignoring case.' })
  query?: string | null;
}
registerInputSpec(ClientSearchInput, CLIENT_SEARCH_BODY);

@InputType({ description: 'POST /auth/token/request/{client_reference} body.' })
export class TokenRequestInput {
  @Field(() => [String], { description: 'Scopes and scope groups (semantics §1.4); duplicates are removed.' })
  scope!: string[];
}
registerInputSpec(TokenRequestInput, TOKEN_REQUEST_BODY);

@InputType({ description: 'POST /auth/token body.' })
export class TokenExchangeInput {
  @Field(() => String, { description: 'The token request reference (UUID).' })
  request_reference!: string;

  @Field(() => String)
  client_secret!: string;
}
registerInputSpec(TokenExchangeInput, TOKEN_EXCHANGE_BODY);
