import { Field, InputType, ObjectType } from 'type-graphql';
import { UnixTime } from '../common/scalars';
import { registerInputSpec } from '../common/validation/input-specs';
import type { JsonSchema, ObjectSpec } from '../common/validation/json-schema';

/** `^[A-Za-z][A-Za-z0-9_]{4,63}$`: a letter, then 4..63 letters, digits or underscores. */
export const usernameField: JsonSchema = { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{4,63}$' };

/** 8..256 characters (code points). */
export const passwordField: JsonSchema = { type: 'string', minLength: 8, maxLength: 256 };

/** A valid address (RFC length limit included) without `+`. */
export const emailField: JsonSchema = {
  type: 'string',
  format: 'email',
  maxLength: 254,
  pattern: '^[^+]*$',
};

/** POST /auth/signup body (semantics §3.1), fields in the spec's order. */
export const SIGNUP_BODY: ObjectSpec = {
  properties: { email: emailField, username: usernameField, password: passwordField },
  required: ['email', 'username', 'password'],
};

/** An object that holds `name` (declared, as ajv's strict mode wants). */
const hasField = (name: string): JsonSchema => ({
  type: 'object',
  properties: { [name]: {} },
  required: [name],
});

/**
 * POST /auth/login body: `{email, password}` or `{username, password}`. Identifiers
 * are only checked to be strings: accounts may predate today's rules (imports), and
 * an unknown one simply answers `auth:user_not_found`. A body with neither identifier
 * breaks a rule over two fields, so it names no field (§1.1.1).
 */
export const LOGIN_BODY: ObjectSpec = {
  properties: {
    email: { type: 'string' },
    username: { type: 'string' },
    password: { type: 'string' },
  },
  required: ['password'],
  whole: { type: 'object', anyOf: [hasField('email'), hasField('username')] },
};

/** POST /auth/activation body. */
export const ACTIVATION_BODY: ObjectSpec = {
  properties: { token: { type: 'string' } },
  required: ['token'],
};

@InputType({ description: 'POST /auth/signup body (§3.1).' })
export class SignupInput {
  @Field(() => String, { description: 'A valid address without "+"; unique ignoring case.' })
  email!: string;

  @Field(() => String, { description: '^[A-Za-z][A-Za-z0-9_]{4,63}$; unique ignoring case.' })
  username!: string;

  @Field(() => String, { description: '8..256 characters.' })
  password!: string;
}
registerInputSpec(SignupInput, SIGNUP_BODY);

@InputType({ description: 'POST /auth/login body: one identifier (email wins when both are given).' })
export class LoginInput {
  @Field(() => String, { nullable: true })
  email?: string;

  @Field(() => String, { nullable: true })
  username?: string;

  @Field(() => String)
  password!: string;
}
registerInputSpec(LoginInput, LOGIN_BODY);

@InputType({ description: 'POST /auth/activation body.' })
export class ActivationInput {
  @Field(() => String, { description: 'The token of the activation link.' })
  token!: string;
}
registerInputSpec(ActivationInput, ACTIVATION_BODY);

/** A newly issued token (semantics §1.6 TokenResponse); the only time its secret is shown. */
@ObjectType()
export class TokenResponse {
  @Field(() => String, { description: 'The token to send in the `auth` header or cookie.' })
  secret!: string;

  @Field(() => UnixTime)
  created!: Date;

  @Field(() => UnixTime)
  expiration!: Date;
}
