import { User } from '../../src/accounts/user.entity';
import { hasPermissions, requirePermissions } from '../../src/common/auth/permissions';
import { coversScopes, expandScopes, isScopeOrGroup } from '../../src/common/auth/scopes';
import { hashSecret, newTokenSecret } from '../../src/common/auth/secrets';
import { AppError, languageOf, validationError } from '../../src/common/errors/app-error';
import { ERROR_CATALOG } from '../../src/common/errors/catalog';
import { ConfigError, loadConfig } from '../../src/config';
import { imageUrl } from '../../src/common/scalars';

function userWith(role: User['role'], forbidden: string[] = []): User {
  const user = new User();
  user.role = role;
  user.forbidden_actions = forbidden;
  return user;
}

describe('message language', () => {
  it.each([
    [undefined, 'en'],
    ['uk', 'uk'],
    ['uk-UA', 'uk'],
    ['en-US,uk;q=0.9', 'en'],
    ['en;q=0.5, uk-UA', 'uk'],
    ['uk;q=0.8, en;q=0.8', 'uk'],
    ['en;q=0.8, uk;q=0.8', 'en'],
    ['ukr', 'en'],
    ['uk;q=0', 'en'],
  ])('Accept-Language %p → %p', (header, language) => {
    expect(languageOf(header)).toBe(language);
  });
});

describe('error catalog', () => {
  it('renders validation messages with and without a field name, in both languages', () => {
    expect(validationError('query', 'page').message_in('en')).toBe('Invalid field page in request query');
    expect(validationError('body').message_in('en')).toBe('Invalid field in request body');
    expect(validationError('path', 'slug').message_in('uk')).toBe('Некоректне поле slug у запиті path');
    expect(validationError('body').message_in('uk')).toBe('Некоректне поле у запиті body');
  });

  it('gives every code a scope:name form (or timeout), a status and two messages', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOG)) {
      expect(code === 'timeout' || /^[a-z]+:[a-z_]+$/.test(code)).toBe(true);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.en.length).toBeGreaterThan(0);
      expect(entry.uk.length).toBeGreaterThan(0);
    }
    expect(Object.keys(ERROR_CATALOG)).toHaveLength(109);
  });

  it('lets an error override its status where the catalog notes an exception', () => {
    expect(new AppError('auth:invalid_token', {}, 404).status).toBe(404);
    expect(new AppError('auth:invalid_token').status).toBe(401);
  });
});

describe('permissions', () => {
  it('are cumulative by role and withheld by forbidden_actions', () => {
    expect(hasPermissions(userWith('user'), ['article:create'])).toBe(true);
    expect(hasPermissions(userWith('moderator'), ['article:trusted'])).toBe(false);
    expect(hasPermissions(userWith('admin'), ['article:trusted', 'comment:write'])).toBe(true);
    expect(hasPermissions(userWith('user', ['comment:write']), ['comment:write'])).toBe(false);
    expect(hasPermissions(userWith('deleted'), ['upload:avatar'])).toBe(false);
  });

  it('asks not-activated accounts to confirm their email, and denies the rest', () => {
    expect(() => requirePermissions(userWith('not_activated'), ['comment:write'])).toThrow(
      expect.objectContaining({ code: 'permission:confirm_email' }),
    );
    expect(() => requirePermissions(userWith('moderator'), ['client:verify'])).toThrow(
      expect.objectContaining({ code: 'permission:denied' }),
    );
  });
});

describe('scopes', () => {
  it('expands groups recursively and `all` to every scope', () => {
    expect(expandScopes(['user-details'])).toEqual(
      new Set([
        'read:user-details',
        'update:user-details:email',
        'update:user-details:password',
        'update:user-details:username',
        'update:user-details:description',
        'delete:user-details:image',
        'delete:user-details:cover',
      ]),
    );
    const all = expandScopes(['all']);
    expect(all.has('read:history')).toBe(true);
    expect(all.has('upload')).toBe(true);
    expect(all.has('seen:notification')).toBe(true);
  });

  it('checks required scopes against granted ones, groups on both sides', () => {
    expect(coversScopes(['watchlist'], ['read:watchlist'])).toBe(true);
    expect(coversScopes(['read:watchlist'], ['watchlist'])).toBe(false);
    expect(coversScopes(['read:watchlist'], ['read:readlist'])).toBe(false);
    expect(isScopeOrGroup('notification')).toBe(true);
    expect(isScopeOrGroup('read:nothing')).toBe(false);
  });
});

describe('token secrets', () => {
  it('are 256-bit URL-safe values stored as SHA-256', () => {
    const secret = newTokenSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hashSecret(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret(secret)).not.toContain(secret);
  });
});

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      demoData: true,
      imageBaseUrl: 'https://cdn.example.invalid',
      requestTimeoutMs: 60000,
      rateLimit: true,
    });
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DEMO_DATA: 'maybe' }, /DEMO_DATA/],
    [{ IMAGE_BASE_URL: 'not a url' }, /IMAGE_BASE_URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
  ])('rejects %p with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('accepts DEMO_DATA=off and RATE_LIMIT=off', () => {
    expect(loadConfig({ DEMO_DATA: 'off', RATE_LIMIT: 'off' })).toMatchObject({
      demoData: false,
      rateLimit: false,
    });
  });
});

describe('image URLs', () => {
  it('join stored paths to the base with exactly one slash and pass absolute URLs through', () => {
    expect(imageUrl('/content/a.jpg')).toBe('https://cdn.test/content/a.jpg');
    expect(imageUrl('content/a.jpg')).toBe('https://cdn.test/content/a.jpg');
    expect(imageUrl('https://img.example.com/a.jpg')).toBe('https://img.example.com/a.jpg');
  });
});
