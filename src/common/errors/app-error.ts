import { ERROR_CATALOG, type ErrorCode } from './catalog';

export type Language = 'en' | 'uk';
export type RequestLocation = 'path' | 'query' | 'body';

/**
 * The one error type services throw. It carries a catalog code and the values of
 * the message's placeholders; the message language is chosen when it is rendered.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    status?: number,
  ) {
    super(renderMessage(code, 'en', params));
    this.name = 'AppError';
    this.status = status ?? ERROR_CATALOG[code].status;
  }

  message_in(language: Language): string {
    return renderMessage(this.code, language, this.params);
  }
}

export function renderMessage(
  code: ErrorCode,
  language: Language,
  params: Record<string, string | number>,
): string {
  return ERROR_CATALOG[code][language].replace(/\{(\w+)\}/g, (_, key: string) => String(params[key] ?? ''));
}

/** The placeholders of `system:validation_error`; the name is left out where none can be given. */
function validationParams(location: RequestLocation, name?: string): Record<string, string> {
  return { name: name === undefined ? '' : `${name} `, location };
}

/** `Invalid field <name> in request <location>`, or without a name where none can be given. */
export function validationError(location: RequestLocation, name?: string): AppError {
  return new AppError('system:validation_error', validationParams(location, name));
}

/**
 * A GraphQL argument that fails its declared rules. Like a coercion error it
 * answers HTTP 400: graphql-js copies `extensions` onto the located error, and
 * Apollo takes the response status from `extensions.http`.
 */
export class ArgumentError extends AppError {
  readonly extensions = { http: { status: 400 } };

  constructor(location: RequestLocation, name?: string) {
    super('system:validation_error', validationParams(location, name));
  }
}

/**
 * The message language: Ukrainian when the highest-weighted Accept-Language entry
 * is `uk` or `uk-*` (ties go to the first listed), else English.
 */
export function languageOf(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'en';
  let best: { tag: string; q: number } | undefined;
  for (const part of acceptLanguage.split(',')) {
    const [rawTag, ...parameters] = part.trim().split(';');
    const tag = rawTag.trim().toLowerCase();
    if (!tag) continue;
    const qParam = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q)) continue;
    if (!best || q > best.q) best = { tag, q };
  }
  return best && best.q > 0 && (best.tag === 'uk' || best.tag.startsWith('uk-')) ? 'uk' : 'en';
}
