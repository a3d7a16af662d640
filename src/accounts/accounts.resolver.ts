import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { DeleteResult } from '../common/delete-result';
import { pathReference } from '../common/validation/uuid';
import type { RequestContext } from '../context';
import { activate, login, resendActivation, signup } from './accounts.service';
import { ActivationInput, LoginInput, SignupInput, TokenResponse } from './accounts.types';
import { deleteToken } from './tokens';
import { User } from './user.entity';

/**
 * Accounts and first-party tokens (§3.1, #1). Signup, login and activation need no
 * token; `@Authorized()` authenticates before the arguments are looked at, as the REST
 * door does.
 */
@Resolver()
export class AccountsResolver {
  @Mutation(() => TokenResponse, {
    description:
      'POST /auth/signup: creates a not yet activated account, sends its activation link and ' +
      'answers a first-party token. Header `captcha` when the deployment requires one.',
  })
  signup(
    @Arg('input', () => SignupInput) input: SignupInput,
    @Ctx() ctx: RequestContext,
  ): Promise<TokenResponse> {
    return signup(ctx, input);
  }

  @Mutation(() => TokenResponse, {
    description: 'POST /auth/login: a first-party token for an account, found by email or else by username.',
  })
  login(
    @Arg('input', () => LoginInput) input: LoginInput,
    @Ctx() ctx: RequestContext,
  ): Promise<TokenResponse> {
    return login(ctx, input);
  }

  @Mutation(() => TokenResponse, {
    description: "POST /auth/activation: confirms the account's address with the token of its link.",
  })
  activate(
    @Arg('input', () => ActivationInput) input: ActivationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<TokenResponse> {
    return activate(ctx, input);
  }

  @Authorized()
  @Mutation(() => User, {
    description: '#1 POST /auth/activation/resend: replaces the activation link and sends it again.',
  })
  async resendActivation(@Ctx() ctx: RequestContext): Promise<User> {
    return resendActivation(ctx, await ctx.auth.required());
  }

  @Authorized()
  @Mutation(() => DeleteResult, {
    description:
      "DELETE /auth/token/{token_reference}: revokes one of the caller's tokens (first-party callers).",
  })
  async deleteToken(
    @Arg('token_reference', () => String) reference: string,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteResult> {
    const viewer = await ctx.auth.required();
    await deleteToken(ctx.em, viewer, pathReference(reference, 'token_reference'));
    return new DeleteResult();
  }
}
